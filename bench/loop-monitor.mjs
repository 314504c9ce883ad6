// Loaded into a benchmarked server with `node --import`: measures event-loop delay and memory, and answers
// a 'sample' message from the benchmark with the figures since the last sample.
import { monitorEventLoopDelay } from 'node:perf_hooks';

// The histogram records the time between the fires of a 1 ms timer; what is reported is the delay beyond
// that millisecond, so an idle loop reads 0.
const RESOLUTION_MS = 1;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
// Peaks of RSS and of its parts (V8's heap, memory outside it, buffers), so a rise can be placed.
const PARTS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'];
let peaks = Object.fromEntries(PARTS.map((part) => [part, 0]));
const notePeaks = () => {
  const now = process.memoryUsage();
  for (const part of PARTS) peaks[part] = Math.max(peaks[part], now[part]);
};
const rssTimer = setInterval(notePeaks, 100);
rssTimer.unref();
const mb = (bytes) => Math.round(bytes / 1048576);
process.on('message', (message) => {
  if (message !== 'sample') return;
  notePeaks();
  process.send?.({
    loopP50ms: ms(histogram.percentile(50)),
    loopP99ms: ms(histogram.percentile(99)),
    loopMaxMs: ms(histogram.max),
    rssMB: mb(process.memoryUsage.rss()),
    // peakRssMB, peakHeapTotalMB, ...
    ...Object.fromEntries(PARTS.map((part) => [`peak${part[0].toUpperCase()}${part.slice(1)}MB`, mb(peaks[part])])),
  });
  histogram.reset();
  peaks = Object.fromEntries(PARTS.map((part) => [part, 0]));
});
// The channel must not keep the server alive on its own.
process.channel?.unref();
