/**
 * The listening room's player: one <audio> element with our own accessible controls (play/pause, back
 * 15 s, forward 30 s on one row even at 320 px, a seek slider, speeds 0.75x-2x remembered per reader on
 * this device, a sleep timer, the chapter list from the file's own marks) and the Media Session API, so
 * lock-screen and headset buttons work too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { CirclePause, CirclePlay, RotateCcw, RotateCw } from 'lucide-react';
import type { Chapter } from '@shared/schemas/reading';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/cn';
import { clock, spokenTime } from '../format';
import { SPEEDS, loadSpeed, saveSpeed } from '../prefs';
export const SLEEP_CHOICES = [
  { value: 'off', label: 'Off' },
  { value: '5', label: '5 minutes' },
  { value: '15', label: '15 minutes' },
  { value: '30', label: '30 minutes' },
  { value: '60', label: '1 hour' },
  { value: 'chapter', label: 'End of chapter' },
] as const;

export interface AudioPlayerProps {
  src: string;
  title: string;
  author: string;
  artwork?: string;
  chapters: Chapter[];
  startAt: number;
  onPosition: (seconds: number, duration: number) => void;
  /** Where the chosen speed is kept on this device (see `speedKey`). */
  speedStorageKey: string;
}

/** The transport buttons: the medium size on a phone, the large one (as `size="lg"`) from 640 px. */
const BIG_FROM_SM = 'sm:h-12 sm:px-6 sm:text-base';

const chapterAt = (chapters: Chapter[], t: number) => {
  let index = 0;
  chapters.forEach((c, i) => {
    if (t + 0.25 >= c.start) index = i;
  });
  return index;
};

export function AudioPlayer({ src, title, author, artwork, chapters, startAt, onPosition, speedStorageKey }: AudioPlayerProps) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(startAt);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(() => loadSpeed(speedStorageKey));
  const [sleep, setSleep] = useState<string>('off');
  const [sleepAt, setSleepAt] = useState<number | null>(null);
  const report = useRef(onPosition);
  report.current = onPosition;
  const current = chapterAt(chapters, time);

  const seek = useCallback((seconds: number) => {
    const el = audio.current;
    if (!el) return;
    const end = Number.isFinite(el.duration) ? el.duration : Infinity;
    el.currentTime = Math.min(Math.max(0, seconds), end);
    setTime(el.currentTime);
    report.current(el.currentTime, Number.isFinite(el.duration) ? el.duration : 0);
  }, []);
  const toggle = useCallback(() => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch((error) => console.error('Playback was refused', error));
    else el.pause();
  }, []);

  // Resume where the listener was, once the file's length is known.
  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const onMeta = () => {
      setDuration(el.duration);
      if (startAt > 0 && el.currentTime < 0.5) el.currentTime = Math.min(startAt, el.duration || startAt);
    };
    el.addEventListener('loadedmetadata', onMeta);
    if (el.readyState >= 1) onMeta();
    return () => el.removeEventListener('loadedmetadata', onMeta);
  }, [startAt]);

  // The reader may become known after the player started (the sign-in status arrives): their speed then.
  useEffect(() => setSpeed(loadSpeed(speedStorageKey)), [speedStorageKey]);
  const chooseSpeed = (next: number) => {
    saveSpeed(speedStorageKey, next);
    setSpeed(next);
  };

  // A new source resets the element's rate, so it is set again once the file's length is known too.
  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const apply = () => {
      el.playbackRate = speed;
      el.defaultPlaybackRate = speed;
    };
    apply();
    el.addEventListener('loadedmetadata', apply);
    return () => el.removeEventListener('loadedmetadata', apply);
  }, [speed]);

  // Sleep timer: pause at a moment in wall-clock time, or at the end of the current chapter.
  useEffect(() => {
    if (sleep === 'off' || sleep === 'chapter') {
      setSleepAt(null);
      return;
    }
    const at = Date.now() + Number(sleep) * 60_000;
    setSleepAt(at);
    const timer = setTimeout(() => {
      audio.current?.pause();
      setSleep('off');
    }, at - Date.now());
    return () => clearTimeout(timer);
  }, [sleep]);

  // Media Session: what the lock screen shows and which buttons it offers.
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({
      title: chapters[current]?.title ?? title,
      artist: author,
      album: title,
      artwork: artwork ? [{ src: artwork }] : [],
    });
    const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
      ['play', () => void audio.current?.play()],
      ['pause', () => audio.current?.pause()],
      ['seekbackward', (d) => seek((audio.current?.currentTime ?? 0) - (d.seekOffset ?? 15))],
      ['seekforward', (d) => seek((audio.current?.currentTime ?? 0) + (d.seekOffset ?? 30))],
      ['seekto', (d) => d.seekTime !== undefined && seek(d.seekTime)],
      ['previoustrack', () => seek(chapters[Math.max(0, current - 1)]?.start ?? 0)],
      ['nexttrack', () => chapters[current + 1] && seek(chapters[current + 1].start)],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // This browser does not offer that button.
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // As above.
        }
      }
    };
  }, [chapters, current, title, author, artwork, seek]);

  useEffect(() => {
    if (!('mediaSession' in navigator) || !duration || !Number.isFinite(duration)) return;
    try {
      navigator.mediaSession.setPositionState({ duration, playbackRate: speed, position: Math.min(time, duration) });
    } catch {
      // Position state is optional.
    }
  }, [time, duration, speed]);

  const onTimeUpdate = () => {
    const el = audio.current;
    if (!el) return;
    setTime(el.currentTime);
    report.current(el.currentTime, Number.isFinite(el.duration) ? el.duration : 0);
    if (sleep === 'chapter') {
      const end = chapters[chapterAt(chapters, el.currentTime)]?.end;
      if (end && el.currentTime >= end - 0.3) {
        el.pause();
        setSleep('off');
      }
    }
  };

  const shownDuration = duration || chapters.at(-1)?.end || 0;
  return (
    <div className="grid gap-6">
      <audio
        ref={audio}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={onTimeUpdate}
        onSeeked={onTimeUpdate}
      />
      <div className="rounded-xl border border-ink-700 bg-ink-900/80 p-4 sm:p-6">
        <p className="text-sm tracking-wide text-bone-300 uppercase">Now playing</p>
        <p className="mt-1 font-display text-xl text-bone-50" aria-live="polite">
          {chapters[current]?.title ?? title}
        </p>
        <div className="mt-5">
          <label htmlFor="audio-position" className="sr-only">
            Position
          </label>
          <input
            id="audio-position"
            type="range"
            min={0}
            max={Math.max(1, Math.floor(shownDuration))}
            step={1}
            value={Math.floor(time)}
            aria-valuetext={`${spokenTime(time)} of ${spokenTime(shownDuration)}`}
            onChange={(e) => seek(Number(e.target.value))}
            className="w-full accent-blood-500"
          />
          <div className="mt-1 flex justify-between text-sm text-bone-300 tabular-nums">
            <span data-testid="audio-time">{clock(time)}</span>
            <span>{clock(shownDuration)}</span>
          </div>
        </div>
        <div className="mt-4 flex items-center justify-center gap-1.5 sm:gap-3" data-testid="transport">
          {/* One row from 320 px: compact on a phone ("15", "30"), the large size from 640 px. */}
          <Button variant="outline" className={cn(BIG_FROM_SM, 'shrink-0')} onClick={() => seek(time - 15)}>
            <RotateCcw aria-hidden="true" />
            <span aria-hidden="true">
              15<span className="hidden sm:inline"> s</span>
            </span>
            <span className="sr-only">Back 15 seconds</span>
          </Button>
          <Button onClick={toggle} className={cn(BIG_FROM_SM, 'min-w-24 shrink-0')}>
            {playing ? <CirclePause aria-hidden="true" /> : <CirclePlay aria-hidden="true" />}
            {playing ? 'Pause' : 'Play'}
          </Button>
          <Button variant="outline" className={cn(BIG_FROM_SM, 'shrink-0')} onClick={() => seek(time + 30)}>
            <span aria-hidden="true">
              30<span className="hidden sm:inline"> s</span>
            </span>
            <span className="sr-only">Forward 30 seconds</span>
            <RotateCw aria-hidden="true" />
          </Button>
        </div>
        <div className="mt-5 grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="audio-speed" className="mb-1 block text-sm font-medium text-bone-200">
              Speed
            </label>
            <select
              id="audio-speed"
              value={String(speed)}
              onChange={(e) => chooseSpeed(Number(e.target.value))}
              className="h-10 w-full rounded-md border border-ink-600 bg-ink-950 px-3 text-bone-50"
            >
              {SPEEDS.map((s) => (
                <option key={s} value={String(s)}>
                  {s}x
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="audio-sleep" className="mb-1 block text-sm font-medium text-bone-200">
              Sleep timer
            </label>
            <select
              id="audio-sleep"
              value={sleep}
              onChange={(e) => setSleep(e.target.value)}
              className="h-10 w-full rounded-md border border-ink-600 bg-ink-950 px-3 text-bone-50"
            >
              {SLEEP_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
            <p className="mt-1 text-xs text-bone-400" aria-live="polite">
              {sleep === 'chapter'
                ? 'Stops at the end of this chapter.'
                : sleepAt
                  ? `Stops at ${new Date(sleepAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`
                  : ''}
            </p>
          </div>
        </div>
      </div>
      <section aria-labelledby="chapters-title" className="rounded-xl border border-ink-700 bg-ink-900/80 p-4 sm:p-6">
        <h2 id="chapters-title" className="font-display text-xl text-bone-50">
          Chapters
        </h2>
        <ol className="mt-3 grid gap-1">
          {chapters.map((c, i) => (
            <li key={`${c.start}-${i}`}>
              <button
                type="button"
                onClick={() => seek(c.start)}
                aria-current={i === current ? 'true' : undefined}
                className={cn(
                  'flex w-full items-center justify-between gap-3 rounded-md px-3 py-2 text-left text-sm focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none',
                  i === current ? 'bg-blood-900/40 text-bone-50' : 'text-bone-200 hover:bg-ink-800',
                )}
              >
                <span>{c.title}</span>
                <span className="tabular-nums text-bone-400">{clock(c.start)}</span>
              </button>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
