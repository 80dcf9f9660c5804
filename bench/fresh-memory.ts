/**
 * What fresh memory costs on this machine: the milliseconds a new process takes to fault in one
 * MiB it has never touched. The benchmarks print it beside their figures because the browser's
 * pipelines fault in memory for every copy they make (WebCrypto's results, the writable's bytes),
 * and on a VM whose host shadows or reclaims guest memory that cost is several times a bare
 * machine's: it is then most of what the ratios measure (docs/operations.md, "Fresh memory,
 * counted by thread").
 */
import { execFileSync } from 'node:child_process';

const MiB = 1024 * 1024;
/** Buffers faulted in per measurement; the median is reported. */
const BUFFERS = 3;
const BUFFER_MiB = 64;

/*
 * In a child process of its own, so none of its pages were ever touched; every buffer is kept, so
 * the allocator cannot hand back one freed a moment ago. Each page is touched once, which is what
 * a fault costs, the copy itself left out.
 */
const PROBE = `
const size = ${BUFFER_MiB} * ${MiB}, kept = [], costs = [];
for (let i = 0; i < ${BUFFERS}; i++) {
  const started = process.hrtime.bigint();
  const buffer = Buffer.allocUnsafeSlow(size);
  for (let offset = 0; offset < size; offset += 4096) buffer[offset] = 1;
  costs.push(Number(process.hrtime.bigint() - started) / 1e6 / ${BUFFER_MiB});
  kept.push(buffer);
}
costs.sort((a, b) => a - b);
process.stdout.write(String(costs[Math.floor(costs.length / 2)]));
`;

/** Milliseconds to fault in one fresh MiB here (median of three 64 MiB buffers), to 0.01 ms. */
export function freshMemoryMsPerMiB(): number {
  const output = execFileSync(process.execPath, ['-e', PROBE], { encoding: 'utf8', timeout: 60_000 });
  return Number(Number(output).toFixed(2));
}

/** The line the benchmarks print. */
export function describeFreshMemory(msPerMiB: number): string {
  return `fresh memory: ${msPerMiB.toFixed(2)} ms to fault in one MiB (a new process touching ${BUFFERS} × ${BUFFER_MiB} MiB)`;
}
