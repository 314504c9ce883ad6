/**
 * Where each chapter of an MP3 audiobook lies in bytes, so the podcast feed can give every chapter as an
 * episode of its own without re-encoding anything (decision 0086). MPEG audio is a run of self-contained
 * frames: a slice that starts on a frame header and ends before the next chapter's first frame plays in any
 * player. The file is walked once, as a stream, frame header by frame header (MPEG 1, 2 and 2.5, layer III).
 */
import type { Readable } from 'node:stream';

export interface ChapterBytes {
  /** First byte of the chapter's first frame. */
  start: number;
  /** Last byte (inclusive) of the chapter's last frame. */
  end: number;
  /** Seconds of audio in the slice. */
  duration: number;
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

interface Frame {
  length: number;
  samples: number;
  sampleRate: number;
}

/** A layer III frame header at `at`, or null when the four bytes are not one. */
export function frameAt(buf: Buffer, at: number): Frame | null {
  if (at + 4 > buf.length || buf[at] !== 0xff || (buf[at + 1] & 0xe0) !== 0xe0) return null;
  const version = (buf[at + 1] >> 3) & 3;
  const layer = (buf[at + 1] >> 1) & 3;
  const bitrateIndex = buf[at + 2] >> 4;
  const rateIndex = (buf[at + 2] >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const sampleRate = SAMPLE_RATES[version][rateIndex];
  const bitrate = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex] * 1000;
  const samples = version === 3 ? 1152 : 576;
  const padding = (buf[at + 2] >> 1) & 1;
  return { length: Math.floor((samples / 8) * bitrate / sampleRate) + padding, samples, sampleRate };
}

/** The size of an ID3v2 tag at the start of the file (0 when there is none). */
function id3Size(head: Buffer): number | null {
  if (head.length < 10) return null;
  if (head.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((head[6] & 0x7f) << 21) | ((head[7] & 0x7f) << 14) | ((head[8] & 0x7f) << 7) | (head[9] & 0x7f);
  return 10 + size + (head[5] & 0x10 ? 10 : 0);
}

/**
 * Walks the stream's frames and cuts them at the chapter start times (seconds, ascending, the first 0): a
 * chapter begins at the first frame that starts at or after its time. The Xing/Info header frame some
 * encoders put first carries no sound and is left out. Null when the stream is not layer III MPEG audio.
 */
export async function chapterBytes(stream: Readable, starts: number[]): Promise<ChapterBytes[] | null> {
  let buffered: Buffer = Buffer.alloc(0);
  let base = 0; // file offset of buffered[0]
  let skip: number | null = null; // bytes of ID3 tag still to pass
  let time = 0;
  let frames = 0;
  const cuts: Array<{ start: number; time: number }> = [];
  let lastEnd = -1;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    if (skip === null) {
      skip = id3Size(buffered);
      if (skip === null) continue;
    }
    let at = 0;
    if (skip > 0) {
      const passed = Math.min(skip, buffered.length);
      skip -= passed;
      at = passed;
    }
    while (at + 4 <= buffered.length) {
      const frame = frameAt(buffered, at);
      if (!frame) {
        // Stray bytes between frames (or a trailing tag): look for the next header.
        at += 1;
        continue;
      }
      if (at + frame.length > buffered.length) break;
      const isInfo = frames === 0 && /Xing|Info/.test(buffered.toString('latin1', at + 4, at + Math.min(frame.length, 48)));
      frames += 1;
      if (!isInfo) {
        while (cuts.length < starts.length && time >= starts[cuts.length] - 1e-6) cuts.push({ start: base + at, time });
        time += frame.samples / frame.sampleRate;
        lastEnd = base + at + frame.length - 1;
      }
      at += frame.length;
    }
    base += at;
    buffered = buffered.subarray(at);
  }
  if (lastEnd < 0 || cuts.length === 0) return null;
  return cuts.map((cut, i) => {
    const next = cuts[i + 1];
    return { start: cut.start, end: next ? next.start - 1 : lastEnd, duration: (next ? next.time : time) - cut.time };
  });
}
