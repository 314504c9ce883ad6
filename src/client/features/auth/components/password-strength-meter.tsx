/** The registration strength meter (docs/PRODUCT.md, Register): five levels with a bar, and hints at the weak levels. */
import { meterLevel } from '@shared/password-strength';
import { cn } from '@client/lib/cn';

const BAR_COLOURS = ['bg-blood-600', 'bg-orange-500', 'bg-amber-400', 'bg-lime-500', 'bg-emerald-500'];

export function PasswordStrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const { level, index, hints } = meterLevel(password);
  return (
    <div className="grid gap-1.5" data-testid="password-strength">
      <div className="flex items-center justify-between text-xs">
        <span className="text-bone-300">Password strength</span>
        <span className="font-semibold text-bone-100">{level.label}</span>
      </div>
      <div
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={level.percent}
        aria-valuetext={level.label}
        className="h-1.5 w-full overflow-hidden rounded-full bg-ink-700"
      >
        <div className={cn('h-full rounded-full transition-all duration-300', BAR_COLOURS[index])} style={{ width: `${level.percent}%` }} />
      </div>
      {hints.length ? (
        <ul className="grid gap-0.5 text-xs text-bone-400" aria-label="To strengthen your password, add">
          {hints.map((hint) => (
            <li key={hint}>• {hint}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
