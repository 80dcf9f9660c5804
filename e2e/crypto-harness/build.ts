// Builds the harness into .tmp/crypto-harness (npm run build:harness, and the spec and bench call it).
import { build } from 'vite';
import config, { HARNESS_OUT_DIR } from './vite.config.ts';

export async function buildHarness(): Promise<string> {
  await build({ ...config, configFile: false });
  return HARNESS_OUT_DIR;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildHarness();
  console.log(`crypto harness built into ${HARNESS_OUT_DIR}`);
}
