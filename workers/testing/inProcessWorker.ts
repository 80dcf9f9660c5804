// A crypto "worker" for node tests: the real worker API exposed over a MessageChannel with Comlink,
// as crypto.worker.ts does in the browser, so a CryptoPool runs unchanged in the same process.
import { expose } from 'comlink';
import { createCryptoWorkerApi } from '../crypto-worker-api.ts';
import { installErrorTransfer } from '../wire-errors.ts';

export function inProcessWorker(): Worker {
  installErrorTransfer();
  const { port1, port2 } = new MessageChannel();
  expose(createCryptoWorkerApi(), port1);
  return Object.assign(port2, {
    terminate: () => {
      port1.close();
      port2.close();
    },
  }) as unknown as Worker;
}
