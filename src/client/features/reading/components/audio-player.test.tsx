import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { AudioPlayer } from './audio-player';

const chapters = [
  { title: 'Opening credits', start: 0, end: 6 },
  { title: 'Chapter One: The Return', start: 6, end: 27.3 },
];

// jsdom has no media pipeline: give the element a length and a play() that starts "playing".
function audioOf(container: HTMLElement) {
  const audio = container.querySelector('audio')!;
  Object.defineProperty(audio, 'duration', { configurable: true, value: 27.3 });
  Object.defineProperty(audio, 'readyState', { configurable: true, value: 1 });
  let paused = true;
  Object.defineProperty(audio, 'paused', { configurable: true, get: () => paused });
  audio.play = vi.fn(async () => {
    paused = false;
    audio.dispatchEvent(new Event('play'));
  });
  audio.pause = vi.fn(() => {
    paused = true;
    audio.dispatchEvent(new Event('pause'));
  });
  fireEvent(audio, new Event('loadedmetadata'));
  return audio;
}

function renderPlayer(onPosition = vi.fn(), startAt = 0, speedStorageKey = 'audio-speed:7') {
  const view = render(
    <AudioPlayer
      src="/api/library/1/audiobook/content"
      title="What We Owe the Dead"
      author="Callum Reyes"
      chapters={chapters}
      startAt={startAt}
      onPosition={onPosition}
      speedStorageKey={speedStorageKey}
    />,
  );
  return { ...view, audio: audioOf(view.container), onPosition };
}

describe('AudioPlayer', () => {
  afterEach(() => localStorage.clear());

  it('plays and pauses from one button named for what it does', async () => {
    const { audio } = renderPlayer();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(audio.play).toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(audio.pause).toHaveBeenCalled();
    expect(await screen.findByRole('button', { name: 'Play' })).toBeInTheDocument();
  });

  it('goes back 15 s and forward 30 s, within the file, and reports each move', () => {
    const { audio, onPosition } = renderPlayer();
    audio.currentTime = 10;
    fireEvent.click(screen.getByRole('button', { name: 'Back 15 seconds' }));
    expect(audio.currentTime).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Forward 30 seconds' }));
    expect(audio.currentTime).toBe(27.3);
    expect(onPosition).toHaveBeenLastCalledWith(27.3, 27.3);
  });

  it('lists the chapters, jumps to one and marks the current one', () => {
    const { audio } = renderPlayer();
    const list = screen.getByRole('region', { name: 'Chapters' });
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['Opening credits0:00', 'Chapter One: The Return0:06']);
    fireEvent.click(within(list).getByRole('button', { name: /Chapter One/ }));
    expect(audio.currentTime).toBe(6);
    expect(within(list).getByRole('button', { name: /Chapter One/ })).toHaveAttribute('aria-current', 'true');
    expect(within(list).getByRole('button', { name: /Opening credits/ })).not.toHaveAttribute('aria-current');
  });

  it('offers speeds from 0.75x to 2x and applies the chosen one', () => {
    const { audio } = renderPlayer();
    const speed = screen.getByLabelText('Speed');
    expect(within(speed).getAllByRole('option').map((o) => o.textContent)).toEqual(['0.75x', '1x', '1.25x', '1.5x', '1.75x', '2x']);
    fireEvent.change(speed, { target: { value: '1.5' } });
    expect(audio.playbackRate).toBe(1.5);
  });

  it("remembers each reader's speed on this device, and ignores a stored value that is no speed", () => {
    const first = renderPlayer();
    fireEvent.change(screen.getByLabelText('Speed'), { target: { value: '1.75' } });
    first.unmount();

    // Back later (a reload): the same reader gets 1.75x, another reader on the device keeps 1x.
    const again = renderPlayer();
    expect(screen.getByLabelText('Speed')).toHaveValue('1.75');
    expect(again.audio.playbackRate).toBe(1.75);
    again.unmount();
    renderPlayer(vi.fn(), 0, 'audio-speed:8');
    expect(screen.getByLabelText('Speed')).toHaveValue('1');
    cleanup();

    localStorage.setItem('audio-speed:7', '9');
    renderPlayer();
    expect(screen.getByLabelText('Speed')).toHaveValue('1');
  });

  it('keeps back, play and forward on one row', () => {
    renderPlayer();
    const row = screen.getByTestId('transport');
    expect(row).not.toHaveClass('flex-wrap');
    const [back, play, forward] = within(row).getAllByRole('button');
    expect(back).toHaveAccessibleName('Back 15 seconds');
    expect(play).toHaveAccessibleName('Play');
    expect(forward).toHaveAccessibleName('Forward 30 seconds');
  });

  it('has a sleep timer that stops playback when its time is up, or at the end of the chapter', async () => {
    vi.useFakeTimers();
    try {
      const { audio } = renderPlayer();
      fireEvent.click(screen.getByRole('button', { name: 'Play' }));
      fireEvent.change(screen.getByLabelText('Sleep timer'), { target: { value: '5' } });
      expect(screen.getByText(/^Stops at /)).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(5 * 60_000));
      expect(audio.pause).toHaveBeenCalledTimes(1);
      expect(screen.getByLabelText('Sleep timer')).toHaveValue('off');

      fireEvent.change(screen.getByLabelText('Sleep timer'), { target: { value: 'chapter' } });
      expect(screen.getByText('Stops at the end of this chapter.')).toBeInTheDocument();
      audio.currentTime = 5.72;
      fireEvent(audio, new Event('timeupdate'));
      expect(audio.pause).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('resumes at the saved second once the file is known', () => {
    const { audio } = renderPlayer(vi.fn(), 12.5);
    expect(audio.currentTime).toBe(12.5);
    expect(screen.getByLabelText('Position')).toHaveAttribute('aria-valuetext', '12 seconds of 27 seconds');
  });
});
