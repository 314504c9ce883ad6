/**
 * "Reading apps" in Account Details (decision 0087): the reader turns on an OPDS catalogue of their library
 * for KOReader, Thorium, PocketBook and the like, sees its private address and, once, its app password;
 * they can get new ones or turn it off at any time.
 */
import { BookOpen } from 'lucide-react';
import { Alert } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Skeleton } from '@client/components/ui/skeleton';
import { useOpdsActions, useOpdsState } from '../api';
import { CopyButton } from '@client/components/ui/copy-button';

function Field({ id, label, value, copyLabel }: { id: string; label: string; value: string; copyLabel: string }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} label={copyLabel} />
      </div>
    </div>
  );
}

export function ReadingAppCatalogue() {
  const state = useOpdsState(true);
  const { enable, regenerate, disable } = useOpdsActions();
  const issued = regenerate.data ?? enable.data;
  const busy = enable.isPending || regenerate.isPending || disable.isPending;
  const failure = enable.error ?? regenerate.error ?? disable.error;
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BookOpen aria-hidden="true" className="size-5" /> Reading apps
        </CardTitle>
        <CardDescription>
          Read your e-books in apps such as KOReader, Thorium or PocketBook: add your library to the app as an OPDS
          catalogue. Books you get there are your own copies and do not use up your download.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {state.isPending ? <Skeleton className="h-10 w-full" /> : null}
        {state.isError ? <Alert variant="destructive">{state.error.message}</Alert> : null}
        {failure ? <Alert variant="destructive">{failure.message}</Alert> : null}
        {disable.isSuccess && !state.data?.enabled ? <Alert>{disable.data.message}</Alert> : null}
        {state.data && !state.data.enabled ? (
          <Button type="button" disabled={busy} onClick={() => enable.mutate()}>
            Turn on reading-app catalogue
          </Button>
        ) : null}
        {state.data?.enabled && state.data.catalogueUrl ? (
          <>
            {issued ? <Alert>{issued.message}</Alert> : null}
            <Field id="opds-address" label="Catalogue address" value={state.data.catalogueUrl} copyLabel="Copy catalogue address" />
            <p className="text-sm text-bone-300">
              Apps that ask for a user name and password can use <span className="font-medium text-bone-100">{state.data.basicUrl}</span> with
              your user name <span className="font-medium text-bone-100">{state.data.username}</span> and the app password.
            </p>
            {issued ? (
              <Field id="opds-password" label="App password" value={issued.password} copyLabel="Copy app password" />
            ) : (
              <p className="text-sm text-bone-300">The app password was shown when you turned the catalogue on. Lost it? Get a new one.</p>
            )}
            <div className="flex flex-wrap gap-3">
              <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => regenerate.mutate()}>
                New address and password
              </Button>
              <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => disable.mutate()}>
                Turn off
              </Button>
            </div>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
