// Loaded into a benchmarked server with `node --import`: measures event-loop delay and memory, and answers
// a 'sample' message from the benchmark with the figures since the last sample.
import { monitorEventLoopDelay } from 'node:perf_hooks';

// The histogram records the time between the fires of a 1 ms timer; what is reported is the delay beyond
// that millisecond, so an idle loop reads 0.
const RESOLUTION_MS = 1;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
let peakRss = 0;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);
rssTimer.unref();
process.on('message', (message) => {
  if (message !== 'sample') return;
  process.send?.({
    loopP50ms: ms(histogram.percentile(50)),
    loopP99ms: ms(histogram.percentile(99)),
    loopMaxMs: ms(histogram.max),
    rssMB: Math.round(process.memoryUsage.rss() / 1048576),
    peakRssMB: Math.round(Math.max(peakRss, process.memoryUsage.rss()) / 1048576),
  });
  histogram.reset();
  peakRss = 0;
});
// The channel must not keep the server alive on its own.
process.channel?.unref();
