/** /admin/settings: the site content the author edits (author, bio, publisher, agent, social links, teaser) and the newsletter's confirmation rule. */
import { useEffect, useState } from 'react';
import { siteSettingsSchema, videoIdFrom, type SiteSettings } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/toast-store';
import { useSaveSettings, useSettings } from '@client/features/admin/api';
import { AdminFrame, QueryState } from '@client/features/admin/components/admin-frame';
import { errorText } from '@client/lib/api-errors';

interface Form extends Omit<SiteSettings, 'authorBio'> {
  authorBio: string;
}

/** One text setting: its label, its hint, and the server's message for it. */
function TextField({ id, label, value, onChange, error, hint }: { id: string; label: string; value: string; onChange: (v: string) => void; error?: string; hint?: string }) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <Input value={value} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}

export default function AdminSettingsPage() {
  const settings = useSettings();
  const save = useSaveSettings();
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (settings.data && !form) setForm({ ...settings.data, authorBio: settings.data.authorBio.join('\n\n') });
  }, [settings.data, form]);

  const patch = (update: (f: Form) => Form) => setForm((f) => (f ? update(f) : f));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!form) return;
    const candidate = {
      ...form,
      authorBio: form.authorBio.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean),
      teaserVideoId: videoIdFrom(form.teaserVideoId),
    };
    const parsed = siteSettingsSchema.safeParse(candidate);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(parsed.data);
      setForm({ ...saved, authorBio: saved.authorBio.join('\n\n') });
      toast({ title: 'Settings saved', description: 'The site shows the new content now.' });
    } catch (error) {
      toast({ title: 'Error', description: `Failed to save settings: ${errorText(error)}`, variant: 'destructive' });
    }
  };

  return (
    <AdminFrame title="Site Settings">
      <QueryState query={settings}>
        {() =>
          form ? (
            <form onSubmit={submit} noValidate className="grid gap-6">
              <Card className="grid gap-5 p-6">
                <h2 className="font-display text-xl font-semibold text-bone-50">Author</h2>
                <TextField id="s-author" label="Author name" value={form.authorName} error={errors.authorName} onChange={(v) => patch((f) => ({ ...f, authorName: v }))} />
                <FormField id="s-bio" label="Biography" error={errors.authorBio} hint="Separate paragraphs with a blank line.">
                  <Textarea rows={10} value={form.authorBio} onChange={(e) => patch((f) => ({ ...f, authorBio: e.target.value }))} />
                </FormField>
              </Card>
              <Card className="grid gap-5 p-6 md:grid-cols-2">
                <h2 className="font-display text-xl font-semibold text-bone-50 md:col-span-2">Publisher and agent</h2>
                <TextField id="s-pub" label="Publisher" value={form.publisher.name} error={errors['publisher.name']} onChange={(v) => patch((f) => ({ ...f, publisher: { ...f.publisher, name: v } }))} />
                <TextField id="s-pub-url" label="Publisher link" value={form.publisher.url} error={errors['publisher.url']} onChange={(v) => patch((f) => ({ ...f, publisher: { ...f.publisher, url: v } }))} />
                <TextField id="s-agent" label="Agent" value={form.agent.name} error={errors['agent.name']} onChange={(v) => patch((f) => ({ ...f, agent: { ...f.agent, name: v } }))} />
                <TextField id="s-agency" label="Agency" value={form.agent.agency} error={errors['agent.agency']} onChange={(v) => patch((f) => ({ ...f, agent: { ...f.agent, agency: v } }))} />
              </Card>
              <Card className="grid gap-5 p-6 md:grid-cols-2">
                <h2 className="font-display text-xl font-semibold text-bone-50 md:col-span-2">Social links</h2>
                {(['x', 'instagram', 'facebook', 'goodreads'] as const).map((k) => (
                  <TextField
                    key={k}
                    id={`s-social-${k}`}
                    label={{ x: 'X', instagram: 'Instagram', facebook: 'Facebook', goodreads: 'Goodreads' }[k]}
                    value={form.social[k]}
                    error={errors[`social.${k}`]}
                    onChange={(v) => patch((f) => ({ ...f, social: { ...f.social, [k]: v } }))}
                  />
                ))}
              </Card>
              <Card className="grid gap-5 p-6">
                <h2 className="font-display text-xl font-semibold text-bone-50">Coming Soon teaser</h2>
                <TextField
                  id="s-teaser"
                  label="Teaser video"
                  value={form.teaserVideoId}
                  error={errors.teaserVideoId}
                  hint="A YouTube address or video id, shown with the upcoming book."
                  onChange={(v) => patch((f) => ({ ...f, teaserVideoId: v }))}
                />
              </Card>
              <Card className="grid gap-3 p-6">
                <h2 className="font-display text-xl font-semibold text-bone-50">Newsletter</h2>
                <label htmlFor="s-confirm" className="flex items-start gap-3 text-bone-100">
                  <input
                    id="s-confirm"
                    type="checkbox"
                    className="mt-1 size-4 accent-blood-500"
                    checked={form.askSubscribersToConfirm !== false}
                    onChange={(e) => patch((f) => ({ ...f, askSubscribersToConfirm: e.target.checked }))}
                    aria-describedby="s-confirm-hint"
                  />
                  <span>Ask new subscribers to confirm</span>
                </label>
                <p id="s-confirm-hint" className="text-sm text-bone-400">
                  The welcome email carries a "Confirm your subscription" link, and an address counts as confirmed only once its
                  owner presses the button. Turned off, new sign-ups are confirmed at once.
                </p>
              </Card>
              <Button type="submit" className="w-fit" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save Settings'}
              </Button>
            </form>
          ) : null
        }
      </QueryState>
    </AdminFrame>
  );
}
