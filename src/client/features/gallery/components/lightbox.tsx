/** The large view of one cover: a modal dialog (focus trapped, Escape or Close to leave). */
import type { GalleryCover } from '@shared/schemas/site';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@client/components/ui/dialog';

export default function Lightbox({
  cover,
  open,
  onOpenChange,
}: {
  cover: GalleryCover;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-5xl bg-ink-950 p-4 sm:p-6" closeLabel="Close">
        <DialogTitle className="pr-10">{cover.title}</DialogTitle>
        <DialogDescription className="sr-only">{cover.alt}</DialogDescription>
        <img src={cover.image} alt={cover.alt} className="mx-auto max-h-[75vh] w-auto max-w-full object-contain" />
      </DialogContent>
    </Dialog>
  );
}
