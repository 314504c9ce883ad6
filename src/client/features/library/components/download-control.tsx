/**
 * The download part of a library row (issue 25 point 4): the one download, asked for with a word first;
 * an interrupted transfer resumed from here while its link lives; and, once used, "Need another download?".
 */
import { useState } from 'react';
import { Download, MailQuestion, RotateCw } from 'lucide-react';
import type { LibraryItem } from '@shared/schemas/library';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { isDownloadUsed } from '../group';

export interface DownloadHandlers {
  /** The row whose download, resume or request is under way (every download button waits meanwhile). */
  busyId: number | null;
  onDownload: (item: LibraryItem) => void;
  onResume: (item: LibraryItem) => void;
  onRequestAnother: (item: LibraryItem) => void;
}

const timeOfDay = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

const linkButton =
  'inline-flex items-center gap-1.5 text-xs font-medium text-blood-300 underline-offset-4 hover:text-bone-50 hover:underline focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none disabled:opacity-50';

function Spinner() {
  return <span aria-hidden="true" className="size-3.5 animate-spin rounded-full border-2 border-bone-50/40 border-t-bone-50" />;
}

/** Before the one download is spent: it is once, on this device, and reading in the browser never uses it. */
function ConfirmDownload({ item, label, disabled, busy, onConfirm }: { item: LibraryItem; label: string; disabled: boolean; busy: boolean; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" variant="primary" disabled={disabled} onClick={() => setOpen(true)} aria-label={`Download ${label}`}>
        {busy ? (
          <>
            <Spinner /> Downloading...
          </>
        ) : (
          <>
            <Download aria-hidden="true" /> Download
          </>
        )}
      </Button>
      <DialogContent aria-describedby={`download-once-${item.id}`}>
        <DialogHeader>
          <DialogTitle>Download the {label} once</DialogTitle>
          <DialogDescription id={`download-once-${item.id}`}>
            Your purchase includes one download of this file, and it will be saved on this device only. Download it on the
            device where you want to keep it.
          </DialogDescription>
        </DialogHeader>
        <p className="rounded-lg border border-ink-600 bg-ink-950/70 px-4 py-3 text-sm text-bone-200">
          Reading or listening in the browser never uses your download.
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Not now</Button>
          </DialogClose>
          <Button
            variant="primary"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            <Download aria-hidden="true" /> Download now
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function DownloadControl({ item, label, handlers }: { item: LibraryItem; label: string; handlers: DownloadHandlers }) {
  const { busyId, onDownload, onResume, onRequestAnother } = handlers;
  const busy = busyId === item.id;
  const waiting = busyId !== null;

  if (!isDownloadUsed(item)) {
    return <ConfirmDownload item={item} label={label} disabled={waiting} busy={busy} onConfirm={() => onDownload(item)} />;
  }

  // docs/PRODUCT.md, Downloads: a used download is a disabled "Download Used"; what can still be done is offered beneath it.
  return (
    <span className="grid justify-items-end gap-1">
      <Button size="sm" variant="outline" disabled aria-label={`${label}: Download Used`}>
        Download Used
      </Button>
      {item.resumeUntil ? (
        <span className="flex flex-wrap items-center justify-end gap-x-2 gap-y-1 text-xs text-bone-400">
          Download interrupted? Resume it here until {timeOfDay(item.resumeUntil)}.
          <button type="button" disabled={waiting} onClick={() => onResume(item)} className={linkButton} aria-label={`Resume the ${label} download`}>
            {busy ? <Spinner /> : <RotateCw aria-hidden="true" className="size-3.5" />} Resume download
          </button>
        </span>
      ) : item.downloadRequest === 'pending' ? (
        <span className="text-xs text-bone-300">Another download requested. We will email you.</span>
      ) : (
        <button type="button" disabled={waiting} onClick={() => onRequestAnother(item)} className={linkButton}>
          <MailQuestion aria-hidden="true" className="size-3.5" /> Need another download?
        </button>
      )}
    </span>
  );
}
