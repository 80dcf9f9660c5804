// npm run s3-server [-- --port 9400] [--dir <state dir>] [--bucket <name> ...]
// Runs the local S3 server (OpenStack Swift + s3api) in the foreground until Ctrl-C / SIGTERM,
// creating the named buckets, and prints the variables that point a server (or the S3 tests,
// TEST_S3_ENDPOINT) at it.
import { parseArgs } from 'node:util';
import { DEFAULT_S3_PORT, startLocalS3 } from './s3-server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: String(DEFAULT_S3_PORT) },
    dir: { type: 'string' },
    bucket: { type: 'string', multiple: true, default: [] },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1024 || port > 65530) {
  console.error('Error: --port must be a port number (it and the four after it are used)');
  process.exit(2);
}
try {
  const s3 = await startLocalS3({ port, stateDir: values.dir });
  for (const bucket of values.bucket) await s3.createBucket(bucket);
  const stop = () => {
    s3.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const env = s3.env(values.bucket[0] ?? '<bucket>');
  console.log(`S3 server ready at ${s3.endpoint} (Swift pid ${s3.pid}); buckets: ${values.bucket.join(', ') || 'none'}`);
  console.log(`  TEST_S3_ENDPOINT=${s3.endpoint}`);
  for (const [name, value] of Object.entries(env)) console.log(`  ${name}=${value}`);
} catch (error) {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
