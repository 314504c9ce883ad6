/**
 * The compact share control's dropdown. Its own chunk, loaded by ShareControl on the first
 * interaction with the Share button (see components/ui/deferred-menu.ts).
 */
import { Check, Link2, Mail, Share2 } from 'lucide-react';
import { SHARE_PLATFORMS } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { useDeferredMenuFocus } from '@client/components/ui/deferred-menu';
import type { DeferredMenuProps } from '@client/components/ui/deferred-menu';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { mailtoUrl, PLATFORM_LABELS, shareTo, type ShareTarget } from '../share';
import { BrandIcon } from './share-icons';
import { useCopied } from './use-copied';

export interface ShareMenuProps extends DeferredMenuProps {
  label: string;
  side: 'right' | 'bottom';
  className?: string;
  /** Read when an option is chosen, so the current page URL is used. */
  target: () => ShareTarget;
}

export default function ShareMenu({ label, side, className, target, ...menu }: ShareMenuProps) {
  const { copied, copy } = useCopied();
  const { triggerRef, onContentFocus } = useDeferredMenuFocus(menu);
  return (
    <div className={className}>
      <DropdownMenu open={menu.open} onOpenChange={menu.onOpenChange}>
        <DropdownMenuTrigger asChild>
          <Button ref={triggerRef} variant="outline" size="sm" aria-label={label}>
            <Share2 aria-hidden="true" />
            Share
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent side={side} align="start" aria-label={label} onFocus={onContentFocus}>
          {SHARE_PLATFORMS.map((p) => (
            <DropdownMenuItem key={p} onSelect={() => void shareTo(p, target())}>
              <BrandIcon platform={p} />
              Share on {PLATFORM_LABELS[p]}
            </DropdownMenuItem>
          ))}
          <DropdownMenuItem asChild>
            <a href={mailtoUrl(target())}>
              <Mail aria-hidden="true" />
              Share by Email
            </a>
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={(event) => {
              // Keep the menu open so the "Copied!" confirmation is seen.
              event.preventDefault();
              void copy(target().url);
            }}
          >
            {copied ? <Check aria-hidden="true" /> : <Link2 aria-hidden="true" />}
            {copied ? 'Copied!' : 'Copy Link'}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
