/** The large view of one cover: a modal dialog (focus trapped, Escape or Close to leave). */
import type { RefObject } from 'react';
import type { GalleryCover } from '@shared/schemas/site';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@client/components/ui/dialog';

export default function Lightbox({
  cover,
  open,
  onOpenChange,
  returnFocus,
}: {
  cover: GalleryCover;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog is opened from code, not a Radix trigger, so it is told where focus goes back to. */
  returnFocus: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-w-5xl bg-ink-950 p-4 sm:p-6"
        closeLabel="Close"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocus.current?.focus();
        }}
      >
        <DialogTitle className="pr-10">{cover.title}</DialogTitle>
        <DialogDescription className="sr-only">{cover.alt}</DialogDescription>
        <img src={cover.image} alt={cover.alt} className="mx-auto max-h-[75vh] w-auto max-w-full object-contain" />
      </DialogContent>
    </Dialog>
  );
}
