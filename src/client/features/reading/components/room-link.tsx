/** "Read" / "Listen" beside a format in the library, with how far the reader got ("Read 37%"). */
import { AudioLines, BookText } from 'lucide-react';
import type { ProgressSummary } from '@shared/schemas/reading';
import { buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';
import { listenedLabel, readLabel, roomPath } from '../api';

interface Props {
  bookId: number;
  format: string;
  label: string;
  progress?: ProgressSummary;
}

export function progressText(format: string, progress: ProgressSummary | undefined): string | null {
  if (!progress) return null;
  if (format === 'audiobook') return listenedLabel(Number(progress.locator) || 0);
  return readLabel(progress.progress);
}

export function RoomLink({ bookId, format, label, progress }: Props) {
  const to = roomPath(bookId, format);
  if (!to) return null;
  const listen = format === 'audiobook';
  const text = progressText(format, progress);
  return (
    <span className="flex items-center gap-3">
      {text ? <span className="text-sm text-bone-300">{text}</span> : null}
      <Link to={to} className={buttonClasses('outline', 'sm')} aria-label={`${listen ? 'Listen to' : 'Read'} ${label}`}>
        {listen ? <AudioLines aria-hidden="true" /> : <BookText aria-hidden="true" />}
        {listen ? 'Listen' : 'Read'}
      </Link>
    </span>
  );
}
