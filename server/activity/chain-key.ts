// The activity log's own key, from which the IP, chain and checkpoint keys are derived
// (chain.ts: activityKeys). It shares nothing with the webhook signing key: whoever holds that key
// (every webhook receiver's secret is derived from it) can neither rewrite the chain nor sign a
// checkpoint. ACTIVITY_CHAIN_KEY sets it (the same value on every process of a deployment; required
// with PostgreSQL, see server/config.ts); otherwise, for the single-process default, it is kept in
// DATA_DIR/activity-chain.key, created on first use.
import { keyFromSetting, loadOrCreateKeyFile } from '../secrets/key-file.ts';

export const CHAIN_KEY_FILE = 'activity-chain.key';

export async function loadActivityChainKey(options: { configured: string | null; dataDir: string }): Promise<Buffer> {
  if (options.configured !== null) return keyFromSetting(options.configured);
  return loadOrCreateKeyFile(options.dataDir, CHAIN_KEY_FILE);
}
