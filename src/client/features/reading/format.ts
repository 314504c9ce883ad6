/** Words for progress: "37%", "Read 37%", "Listened 1 h 12 min", "12:05". */

export function percent(progress: number): string {
  return `${Math.round(Math.min(1, Math.max(0, progress)) * 100)}%`;
}

export function readLabel(progress: number): string {
  return `Read ${percent(progress)}`;
}

/** "Listened 1 h 12 min", "Listened 4 min", "Listened under a minute". */
export function listenedLabel(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  if (minutes < 1) return 'Listened under a minute';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `Listened ${h ? `${h} h ` : ''}${h && !m ? '' : `${m} min`}`.trim();
}

/** A clock time for the player: "0:07", "12:05", "1:02:09". */
export function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Spoken form for a slider: "1 minute 5 seconds of 27 minutes". */
export function spokenTime(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h && `${h} hour${h === 1 ? '' : 's'}`, m && `${m} minute${m === 1 ? '' : 's'}`, `${s} second${s === 1 ? '' : 's'}`];
  return parts.filter(Boolean).join(' ');
}
