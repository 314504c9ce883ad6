/** The foot of an admin form: its form-level error, then the submit button and an optional Cancel. */
import { Button } from '@client/components/ui/button';

export function FormFooter({ error, saving, submitLabel, onCancel }: { error?: string; saving: boolean; submitLabel: string; onCancel?: () => void }) {
  return (
    <>
      {error ? (
        <p role="alert" className="text-sm text-blood-300">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </>
  );
}
