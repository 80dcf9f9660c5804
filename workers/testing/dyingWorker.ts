// A crypto "worker" for node tests that can die mid-call: the real worker API over a MessageChannel
// (as inProcessWorker), plus a record of the calls it received and a way to make it fire `error`
// or `messageerror` and stop answering, as a crashed browser worker does, or stop answering without
// any event (a worker that closed itself or whose thread is blocked). Its hashing port (the other
// worker's end of PortHashSink) stops with it.
import { expose } from 'comlink';
import { createCryptoWorkerApi, type CryptoWorkerApi } from '../crypto-worker-api.ts';
import { installErrorTransfer } from '../wire-errors.ts';

export interface DyingWorker {
  readonly calls: string[];
  /** The key ids this worker was told to forget (releaseKey), in order. */
  readonly released: string[];
  /** Calls of `method` from now on never answer (a worker busy for good, to have a call pending). */
  hang(method: keyof CryptoWorkerApi): void;
  /** Calls of `method` from now on wait until the returned function is called, then run. */
  gate(method: keyof CryptoWorkerApi): () => void;
  die(event: 'error' | 'messageerror'): void;
  /** Stops answering anything, pings included, and fires nothing (self.close(), a blocked thread). */
  silence(): void;
  readonly terminated: boolean;
}

export function dyingWorkers(): { create: () => Worker; workers: DyingWorker[] } {
  const workers: DyingWorker[] = [];
  const create = (): Worker => {
    installErrorTransfer();
    const { port1, port2 } = new MessageChannel();
    const api = createCryptoWorkerApi();
    const hashPorts: MessagePort[] = [];
    const hanging = new Set<string>();
    const gates = new Map<string, Promise<void>>();
    const calls: string[] = [];
    const released: string[] = [];
    let terminated = false;
    const recorded = new Proxy(api, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          calls.push(property);
          if (property === 'releaseKey') released.push(args[0] as string);
          if (hanging.has(property)) return new Promise(() => undefined);
          if (property === 'serveHashPort') hashPorts.push(args[0] as MessagePort);
          const run = () => (value as (...a: unknown[]) => unknown).apply(target, args);
          const gate = gates.get(property);
          return gate ? gate.then(run) : run();
        };
      },
    });
    expose(recorded, port1);
    const stop = () => {
      port1.close();
      for (const port of hashPorts) port.close();
    };
    const worker = Object.assign(port2, {
      terminate: () => {
        terminated = true;
        stop();
        port2.close();
      },
    }) as unknown as Worker;
    workers.push({
      calls,
      released,
      hang: (method) => hanging.add(method),
      gate: (method) => {
        let open = () => undefined as void;
        gates.set(method, new Promise<void>((resolve) => (open = resolve)));
        return () => {
          gates.delete(method);
          open();
        };
      },
      die: (event) => {
        stop();
        worker.dispatchEvent(new Event(event));
      },
      silence: stop,
      get terminated() {
        return terminated;
      },
    });
    return worker;
  };
  return { create, workers };
}
