// npm run test:scale: the scale-out scenario (scale.scenario.ts), apart from the unit suite because
// it starts its own S3 server, nginx and two server processes and runs for a minute or two.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/scale/**/*.scenario.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    // The rig's start: Swift alone may take up to 3 min on a loaded machine (scripts/s3-server).
    hookTimeout: 300_000,
  },
});
