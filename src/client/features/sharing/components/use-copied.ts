/** "Copied!" state for the 2-second copied indicator (docs/PRODUCT.md, Sharing). */
import { useEffect, useRef, useState } from 'react';
import { COPIED_INDICATOR_MS } from '@shared/constants';
import { copyLink } from '../share';

export function useCopied() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (url: string) => {
    if (!(await copyLink(url))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  };
  return { copied, copy };
}
