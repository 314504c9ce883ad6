/**
 * The share control (docs/PRODUCT.md, Sharing). `compact` is a dropdown (its code loads on first interaction, see share-menu);
 * `default` is a row of icon buttons; `expanded` adds the labels. Each can run horizontally or vertically. X, Facebook and LinkedIn open a 600x400 popup,
 * mail opens the mail client, and copy link shows "Copied!" for 2 seconds.
 */
import { useSyncExternalStore } from 'react';
import { Check, Link2, Mail, Share2 } from 'lucide-react';
import { SHARE_PLATFORMS, type SharePlatform } from '@shared/constants';
import { Button, buttonClasses } from '@client/components/ui/button';
import { useDeferredMenu } from '@client/components/ui/deferred-menu';
import { cn } from '@client/lib/cn';
import { mailtoUrl, PLATFORM_LABELS, shareTo, type ShareTarget } from '../share';
import type { ShareMenuProps } from './share-menu';
import { BrandIcon } from './share-icons';
import { useCopied } from './use-copied';

export type ShareVariant = 'compact' | 'default' | 'expanded';
export type ShareDirection = 'horizontal' | 'vertical';

export interface ShareControlProps {
  title: string;
  text?: string;
  /** Absolute URL to share; defaults to the current page. */
  url?: string;
  variant?: ShareVariant;
  direction?: ShareDirection;
  /** Names the group for assistive tech, e.g. "Share the synopsis". */
  label?: string;
  className?: string;
}

/** The compact variant's button until the first interaction loads the dropdown. */
function ShareMenuSlot(props: Pick<ShareMenuProps, 'className' | 'label' | 'side' | 'target'>) {
  const { Menu, menuProps, placeholderProps } = useDeferredMenu<ShareMenuProps>(() => import('./share-menu'));
  if (Menu) return <Menu {...props} {...menuProps} />;
  return (
    <div className={props.className}>
      <Button variant="outline" size="sm" aria-label={props.label} {...placeholderProps}>
        <Share2 aria-hidden="true" />
        Share
      </Button>
    </div>
  );
}

const noSubscription = () => (): void => undefined;

/**
 * The page's address for links drawn in the markup (the email link). The server cannot know it, so the
 * server and the hydrating browser draw the link without it and the browser fills it in right after.
 */
function usePageAddress(): string {
  return useSyncExternalStore(noSubscription, () => window.location.href, () => '');
}

export function ShareControl({
  title,
  text,
  url,
  variant = 'default',
  direction = 'horizontal',
  label = 'Share',
  className,
}: ShareControlProps) {
  const { copied, copy } = useCopied();
  const here = usePageAddress();
  const target = (): ShareTarget => ({ url: url ?? window.location.href, title, text });
  const share = (platform: SharePlatform) => void shareTo(platform, target());
  const copyLabel = copied ? 'Copied!' : 'Copy Link';

  if (variant === 'compact') {
    return <ShareMenuSlot className={className} label={label} side={direction === 'vertical' ? 'right' : 'bottom'} target={target} />;
  }

  const expanded = variant === 'expanded';
  const itemClass = buttonClasses('outline', expanded ? 'sm' : 'icon', cn(!expanded && 'size-9', expanded && 'justify-start'));
  return (
    <div
      role="group"
      aria-label={label}
      className={cn('flex gap-2', direction === 'vertical' ? 'flex-col items-stretch' : 'flex-row flex-wrap items-center', className)}
    >
      {SHARE_PLATFORMS.map((p) => (
        <button
          key={p}
          type="button"
          className={itemClass}
          aria-label={expanded ? undefined : `Share on ${PLATFORM_LABELS[p]}`}
          title={expanded ? undefined : `Share on ${PLATFORM_LABELS[p]}`}
          onClick={() => share(p)}
        >
          <BrandIcon platform={p} />
          {expanded ? <span>{PLATFORM_LABELS[p]}</span> : null}
        </button>
      ))}
      <a
        className={itemClass}
        href={mailtoUrl({ url: url ?? here, title, text })}
        aria-label={expanded ? undefined : 'Share by Email'}
        title={expanded ? undefined : 'Share by Email'}
      >
        <Mail aria-hidden="true" />
        {expanded ? <span>Email</span> : null}
      </a>
      <button
        type="button"
        className={itemClass}
        aria-label={expanded ? undefined : copyLabel}
        title={expanded ? undefined : copyLabel}
        onClick={() => void copy(target().url)}
      >
        {copied ? <Check aria-hidden="true" className="text-blood-400" /> : <Link2 aria-hidden="true" />}
        {expanded ? <span>{copyLabel}</span> : null}
      </button>
      <span aria-live="polite" className="sr-only">
        {copied ? 'Copied!' : ''}
      </span>
    </div>
  );
}
