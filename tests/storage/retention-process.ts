// One retention pass in a process of its own, on the data a test server uses (its environment):
// `node --import tsx tests/storage/retention-process.ts <now>`. It runs files/retention.ts directly,
// without the sweep's lease, so that several of these at once prove that the delete itself hands
// each file to exactly one process. Prints {"deleted": [file ids]} once done.
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { createRepositories } from '../../server/db/repositories/index.ts';
import { applyRetention } from '../../server/files/retention.ts';
import { pino } from 'pino';
import { openBlobStore } from '../../server/storage/open-blob-store.ts';

const now = Number(process.argv[2]);
const config = loadConfig();
const database = await openDatabase(config.database);
const deleted: number[] = [];
try {
  const repos = createRepositories(database.db);
  const blobs = await openBlobStore(config);
  await applyRetention(
    {
      repos,
      blobs,
      log: pino({ level: 'silent' }),
      onDeleted: async (_folder, files) => {
        deleted.push(...files.map((file) => file.id));
      },
    },
    now,
    async () => undefined,
  );
} finally {
  await database.close();
}
process.stdout.write(`${JSON.stringify({ deleted })}\n`);
