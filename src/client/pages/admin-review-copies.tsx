/**
 * /admin/review-copies (decision 0099): the author's campaigns, each with its applications. Approve or decline
 * one or several at once; applicants who kept a past copy without a review are flagged; reminders can go out
 * now; after the close, copies nobody opened can be withdrawn. "New campaign" and each campaign's "Edit" open the
 * campaign form.
 */
import { type ReactNode, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Pencil, Plus } from 'lucide-react';
import type { AdminApplication, AdminCampaign, CampaignInput, CountAnswer, DecideAnswer, WithdrawAnswer } from '@shared/schemas/review-copies';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { toast } from '@client/components/ui/toast-store';
import { useBooks } from '@client/features/admin/api';
import { AdminFrame, EmptyState, QueryState } from '@client/features/admin/components/admin-frame';
import { CampaignForm } from '@client/features/admin/review-copies/campaign-form';
import { ADMIN_CAMPAIGNS_KEY, applicationsKey, campaignAction, useAdminCampaigns, useApplications, useSaveCampaign } from '@client/features/review-copies/api';
import { errorText } from '@client/lib/api-errors';
import { formatShortDate } from '@client/lib/format';

const STATE_LABEL: Record<AdminCampaign['state'], string> = { upcoming: 'Not open yet', open: 'Open', closed: 'Closed', full: 'Full' };
const STATUS_LABEL: Record<AdminApplication['status'], string> = { pending: 'Waiting', approved: 'Approved', declined: 'Declined', withdrawn: 'Withdrawn' };

export default function AdminReviewCopiesPage() {
  const campaigns = useAdminCampaigns();
  const books = useBooks();
  const save = useSaveCampaign();
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  const onSave = (id: number | null) => async (input: CampaignInput) => {
    await save.mutateAsync({ id, input });
    toast({ title: id === null ? 'Campaign created' : 'Campaign saved', description: `Applications are taken at /review-copies/${input.slug}.` });
    setEditing(null);
  };
  const form = (campaign: AdminCampaign | null) => (
    <QueryState query={books}>
      {() => <CampaignForm campaign={campaign} books={books.data!} saving={save.isPending} onSave={onSave(campaign?.id ?? null)} onCancel={() => setEditing(null)} />}
    </QueryState>
  );

  return (
    <AdminFrame
      title="Review copies"
      intro="Campaigns that give readers a personal copy to review. Approved readers are reminded until they post a review link."
      actions={
        editing === 'new' ? null : (
          <Button size="sm" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            New campaign
          </Button>
        )
      }
    >
      {editing === 'new' ? (
        <section aria-labelledby="new-campaign" className="mb-8 grid gap-3">
          <h2 id="new-campaign" className="font-display text-xl font-semibold text-bone-50">
            New campaign
          </h2>
          {form(null)}
        </section>
      ) : null}
      <QueryState query={campaigns}>
        {() =>
          campaigns.data!.length === 0 ? (
            <EmptyState>No review-copy campaigns yet.</EmptyState>
          ) : (
            <ul className="grid gap-6">
              {campaigns.data!.map((c) => (
                <li key={c.id}>
                  <CampaignCard campaign={c} onEdit={() => setEditing(c.id)} editor={editing === c.id ? form(c) : null} />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}

function CampaignCard({ campaign: c, onEdit, editor }: { campaign: AdminCampaign; onEdit: () => void; editor: ReactNode }) {
  const queryClient = useQueryClient();
  const applications = useApplications(c.id);
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ADMIN_CAMPAIGNS_KEY }), queryClient.invalidateQueries({ queryKey: applicationsKey(c.id) })]);

  const run = async <T extends { message: string }>(action: 'decide' | 'remind' | 'withdraw', body?: unknown) => {
    setBusy(true);
    try {
      const answer = await campaignAction<T>(c.id, action, body);
      toast({ title: 'Done', description: answer.message });
      setSelected([]);
      await refresh();
    } catch (error) {
      toast({ title: 'That did not work', description: errorText(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const decide = (ids: number[], decision: 'approve' | 'decline') => run<DecideAnswer>('decide', { ids, decision });
  const pending = applications.data?.filter((a) => a.status === 'pending') ?? [];

  return (
    <Card className="grid gap-5 p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h2 className="font-display text-2xl font-semibold text-bone-50">
            {c.bookTitle} <span className="text-base font-normal text-bone-400">({c.formatLabel})</span>
          </h2>
          <p className="text-sm text-bone-300">
            /review-copies/{c.slug} · {formatShortDate(c.opensAt)} to {formatShortDate(c.closesAt)} · {c.autoApprove ? 'approved automatically' : 'approved by hand'} · reminders every{' '}
            {c.reminderDays} days
          </p>
          <p className="text-sm text-bone-400">
            {c.approved} of {c.copies} copies given · {c.pending} waiting · {c.reviewed} reviewed · {c.withdrawn} withdrawn
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={c.state === 'open' ? 'accent' : 'outline'}>{STATE_LABEL[c.state]}</Badge>
          <Button size="sm" variant="outline" disabled={editor !== null} onClick={onEdit} aria-label={`Edit /review-copies/${c.slug}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void run<CountAnswer>('remind')}>
            Send reminders now
          </Button>
          {c.state === 'closed' ? (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => void run<WithdrawAnswer>('withdraw')}>
              Withdraw unread copies
            </Button>
          ) : null}
        </div>
      </div>
      {editor}
      <QueryState query={applications}>
        {() =>
          applications.data!.length === 0 ? (
            <EmptyState>No applications yet.</EmptyState>
          ) : (
            <div className="grid gap-3">
              {pending.length > 0 ? (
                <div className="flex flex-wrap items-center gap-2 text-sm text-bone-300">
                  <span>{selected.length} selected</span>
                  <Button size="sm" disabled={busy || selected.length === 0} onClick={() => void decide(selected, 'approve')}>
                    Approve selected
                  </Button>
                  <Button size="sm" variant="outline" disabled={busy || selected.length === 0} onClick={() => void decide(selected, 'decline')}>
                    Decline selected
                  </Button>
                </div>
              ) : null}
              <ul aria-label={`Applications for ${c.bookTitle}`} className="grid gap-3">
                {applications.data!.map((a) => (
                  <li key={a.id} className="grid gap-2 rounded-xl border border-ink-700 bg-ink-900/60 p-4 sm:grid-cols-[auto_1fr_auto] sm:items-start sm:gap-4">
                    <div className="pt-1">
                      {a.status === 'pending' ? (
                        <input
                          type="checkbox"
                          aria-label={`Select ${a.name}`}
                          className="size-4 accent-blood-500"
                          checked={selected.includes(a.id)}
                          onChange={(e) => setSelected((s) => (e.target.checked ? [...s, a.id] : s.filter((id) => id !== a.id)))}
                        />
                      ) : null}
                    </div>
                    <div className="grid min-w-0 gap-1">
                      <p className="font-semibold text-bone-50">
                        {a.name} <span className="font-normal break-all text-bone-400">{a.email}</span>
                      </p>
                      <p className="text-sm text-bone-300">Reviews on: {a.reviewsWhere}</p>
                      <p className="text-sm whitespace-pre-line text-bone-200">{a.answer}</p>
                      {a.profileLinks.length > 0 ? (
                        <p className="flex flex-wrap gap-x-3 text-sm">
                          {a.profileLinks.map((l) => (
                            <a key={l} href={l} target="_blank" rel="noopener noreferrer" className="break-all text-blood-300 underline underline-offset-4">
                              {l}
                            </a>
                          ))}
                        </p>
                      ) : null}
                      {a.keptWithoutReview.length > 0 ? (
                        <p className="flex items-center gap-2 text-sm text-amber-300">
                          <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
                          Kept a review copy without posting a review: {a.keptWithoutReview.join(', ')}
                        </p>
                      ) : null}
                      {a.reviewLinks.length > 0 ? <p className="text-sm break-all text-emerald-300">Review: {a.reviewLinks.join(', ')}</p> : null}
                    </div>
                    <div className="flex flex-wrap items-center gap-2 sm:justify-end">
                      <Badge variant="outline">{STATUS_LABEL[a.status]}</Badge>
                      {a.status === 'pending' ? (
                        <>
                          <Button size="sm" disabled={busy} onClick={() => void decide([a.id], 'approve')} aria-label={`Approve ${a.name}`}>
                            Approve
                          </Button>
                          <Button size="sm" variant="ghost" disabled={busy} onClick={() => void decide([a.id], 'decline')} aria-label={`Decline ${a.name}`}>
                            Decline
                          </Button>
                        </>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          )
        }
      </QueryState>
    </Card>
  );
}
