// Loaded into a server process by bench:admin-reads --loop-delay (node --require): every second
// one line on stderr with the event loop's delay over that second (perf_hooks'
// monitorEventLoopDelay, 10 ms resolution): how long the process's own work kept it from
// answering, apart from what the machine's other load did to the whole process.
const { monitorEventLoopDelay } = require('node:perf_hooks');
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
setInterval(() => {
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  process.stderr.write(`${JSON.stringify({ loopDelay: { at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) } })}\n`);
  histogram.reset();
}, 1000).unref();
