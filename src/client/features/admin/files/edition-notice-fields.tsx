/** "Tell owners about this edition" beside a replaceable e-book or PDF, with the author's note (decision 0091). */
import { EDITION_NOTICE_MESSAGES } from '@shared/schemas/admin';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';

export interface NoticeChoice {
  notify: boolean;
  note: string;
}

export function EditionNoticeFields({
  id,
  value,
  onChange,
  disabled,
}: {
  id: string;
  value: NoticeChoice;
  onChange: (next: NoticeChoice) => void;
  disabled: boolean;
}) {
  return (
    <div className="mt-3 grid gap-2">
      <label htmlFor={`${id}-notify`} className="flex items-start gap-2 text-sm text-bone-100">
        <input
          id={`${id}-notify`}
          type="checkbox"
          className="mt-0.5 size-4 accent-blood-500"
          checked={value.notify}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, notify: e.target.checked })}
        />
        {EDITION_NOTICE_MESSAGES.checkbox}
      </label>
      {value.notify ? (
        <div className="grid gap-1">
          <Label htmlFor={`${id}-note`}>{EDITION_NOTICE_MESSAGES.noteLabel}</Label>
          <Textarea
            id={`${id}-note`}
            rows={3}
            maxLength={2000}
            value={value.note}
            disabled={disabled}
            aria-describedby={`${id}-note-hint`}
            onChange={(e) => onChange({ ...value, note: e.target.value })}
          />
          <p id={`${id}-note-hint`} className="text-xs text-bone-400">
            Mailed with the new file to every owner of this format, who gets one download of it. Choose the file next.
          </p>
        </div>
      ) : null}
    </div>
  );
}
