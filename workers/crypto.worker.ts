// The crypto worker: everything it does is in crypto-worker-api.ts; this file only exposes it.
import { expose } from 'comlink';
import { createCryptoWorkerApi } from './crypto-worker-api.ts';
import { installErrorTransfer } from './wire-errors.ts';

installErrorTransfer();
expose(createCryptoWorkerApi());
