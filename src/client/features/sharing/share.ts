/** Share links, the 600x400 popup and the points call (docs/PRODUCT.md, Sharing). */
import { SHARE_POPUP, type SharePlatform } from '@shared/constants';
import type { ShareAnswer } from '@shared/schemas/sharing';
import { apiRequest } from '@client/lib/api-client';
import { toast } from '@client/components/ui/toast-store';

export interface ShareTarget {
  url: string;
  title: string;
  text?: string;
}

export const PLATFORM_LABELS: Record<SharePlatform, string> = { x: 'X', facebook: 'Facebook', linkedin: 'LinkedIn' };

export function shareUrl(platform: SharePlatform, target: ShareTarget): string {
  const u = encodeURIComponent(target.url);
  switch (platform) {
    case 'x':
      return `https://x.com/intent/tweet?url=${u}&text=${encodeURIComponent(target.text ?? target.title)}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${u}`;
    case 'linkedin':
      return `https://www.linkedin.com/sharing/share-offsite/?url=${u}`;
  }
}

export function mailtoUrl(target: ShareTarget): string {
  const body = `${target.text ? `${target.text}\n\n` : ''}${target.url}`;
  return `mailto:?subject=${encodeURIComponent(target.title)}&body=${encodeURIComponent(body)}`;
}

/** Opens the platform's share page in a centred 600x400 popup. */
export function openSharePopup(url: string, name: string): void {
  const { width, height } = SHARE_POPUP;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  window.open(url, name, `width=${width},height=${height},left=${left},top=${top},noopener,noreferrer`);
}

/** Tells the server about a share; a signed-in reader may earn points. Failures are only logged (docs/PRODUCT.md, Sharing). */
export async function recordShare(platform: SharePlatform): Promise<void> {
  try {
    const res = await apiRequest('POST', '/api/social-share', { platform });
    const answer = (await res.json()) as ShareAnswer;
    if (answer.pointsAwarded > 0) {
      toast({ title: 'Points Earned!', description: answer.message });
    }
  } catch (error) {
    console.error('Could not award share points', error);
  }
}

export function shareTo(platform: SharePlatform, target: ShareTarget): Promise<void> {
  openSharePopup(shareUrl(platform, target), `share-${platform}`);
  return recordShare(platform);
}

/** Copies the link; answers whether it worked so the control can show "Copied!". */
export async function copyLink(url: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied!', description: 'The link is on your clipboard, ready to paste.' });
    return true;
  } catch (error) {
    console.error('Copy failed', error);
    toast({ title: 'Copy failed', description: 'Could not copy the link to clipboard', variant: 'destructive' });
    return false;
  }
}
