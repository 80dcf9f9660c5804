// whileReachable against V8's real garbage collector. The handle here owns the only way to settle
// its call, as presumably in Chromium (the answer over the handle's connection to the browser), so
// nothing but whileReachable keeps it alive while the call is on the way.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { whileReachable } from './keep-reachable.ts';

/** V8's gc() without starting node with --expose-gc. */
function garbageCollector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Full collections, with a turn of the event loop after each (FinalizationRegistry callbacks, WeakRefs). */
async function collect(gc: () => void): Promise<void> {
  for (let n = 0; n < 5; n++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** A handle whose calls can only be answered through the handle itself; the test keeps only a WeakRef. */
class Handle {
  private readonly answers: (() => void)[] = [];

  call(): Promise<void> {
    return new Promise<void>((resolve) => this.answers.push(resolve));
  }

  answer(): void {
    this.answers.shift()?.();
  }
}

/**
 * A handle with `calls` calls on the way through whileReachable, made where nothing else keeps the
 * handle (as in an optimized async function): a WeakRef to it, and the calls' promises.
 */
function unreferencedHandleWithCalls(calls: number): [WeakRef<Handle>, ...Promise<void>[]] {
  const handle = new Handle();
  return [new WeakRef(handle), ...Array.from({ length: calls }, () => whileReachable(handle, handle.call()))];
}

describe('whileReachable', () => {
  it('keeps the handle alive until its call settles, then lets it go', async () => {
    const gc = garbageCollector();
    const [weak, pending] = unreferencedHandleWithCalls(1);
    await collect(gc);
    expect(weak.deref()).toBeInstanceOf(Handle);
    weak.deref()!.answer();
    await pending;
    await collect(gc);
    // Collected once the call settled: the check above could have seen a collection.
    expect(weak.deref()).toBeUndefined();
  });

  it('keeps a handle with two calls on the way until both settle', async () => {
    const gc = garbageCollector();
    const [weak, first, second] = unreferencedHandleWithCalls(2);
    weak.deref()!.answer();
    await first;
    await collect(gc);
    expect(weak.deref()).toBeInstanceOf(Handle);
    weak.deref()!.answer();
    await second;
    await collect(gc);
    expect(weak.deref()).toBeUndefined();
  });
});
