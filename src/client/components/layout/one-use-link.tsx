/**
 * The two faces of a page an emailed one-use link opens (sign-in, newsletter confirmation, free book).
 * Opening such a page changes nothing, since mail scanners open links too: the reader's press of its button
 * does. Until then it shows the button; a link the server refused shows why and a way on.
 */
import type { ComponentType, ReactNode } from 'react';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';

interface Heading {
  eyebrow: string;
  title: string;
}

export function RefusedLink({ eyebrow, title, message, children }: Heading & { message: string; children: ReactNode }) {
  return (
    <PageShell width="narrow" eyebrow={eyebrow} title={title}>
      <div className="grid gap-6">
        <Alert variant="destructive" title="This link does not work">
          {message}
        </Alert>
        {children}
      </div>
    </PageShell>
  );
}

interface PressProps extends Heading {
  intro: string;
  icon: ComponentType<{ 'aria-hidden'?: boolean | 'true' }>;
  label: string;
  busyLabel: string;
  busy: boolean;
  /** Why the last press got no answer; the button stays for another. */
  failure: string | null;
  /** What a reader who did not ask for the mail should know. */
  note: string;
  onPress: () => void;
  /** Shown above the button (a cover, say). */
  children?: ReactNode;
}

export function PressToUseLink({ eyebrow, title, intro, icon: Icon, label, busyLabel, busy, failure, note, onPress, children }: PressProps) {
  return (
    <PageShell width="narrow" eyebrow={eyebrow} title={title} intro={intro}>
      <div className="grid gap-4">
        {children}
        <Button size="lg" className="w-full sm:w-fit" onClick={onPress} disabled={busy} aria-busy={busy || undefined}>
          <Icon aria-hidden="true" />
          {busy ? busyLabel : label}
        </Button>
        {failure ? (
          <p role="alert" className="text-sm text-blood-300">
            {failure}
          </p>
        ) : null}
        <p className="text-sm text-bone-400">{note}</p>
      </div>
    </PageShell>
  );
}
