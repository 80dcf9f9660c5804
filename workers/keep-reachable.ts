/**
 * Keeping a browser object alive while a call on it is on the way.
 *
 * Chromium (156 here) drops the answer of a file system call whose handle object is
 * garbage-collected while the call is pending, and the call's promise never settles; presumably the
 * answer travels over the handle's own connection to the browser, which a pending call does not
 * keep alive (inferred from the measurements below, not read in Chromium's source). Code like
 * `const file = await directory.getFileHandle(name); await file.createSyncAccessHandle()` does not
 * keep `file` alive during the second await: once V8 has optimized the function, a suspended
 * function keeps only the variables it uses after the `await` (reproduced in node with a WeakRef:
 * an optimized async function let such an object be collected 10 times out of 10). This was the
 * upload spool's lost createSyncAccessHandle() answer: in bench:upload about one 16 MiB chunk in
 * 100 stalled for the call limit before, none in 30 runs of 64 chunks with the handle kept
 * reachable (docs/upload.md "Upload spool").
 *
 * No library does this: it is a set and a finally.
 */

/** The handles with a call on the way: one entry per call, so two calls on one handle do not interfere. */
const handlesInUse = new Set<{ readonly handle: object }>();

/** `call`, made on `handle`, with the handle kept reachable until the call settles. */
export function whileReachable<T>(handle: object, call: Promise<T>): Promise<T> {
  const entry = { handle };
  handlesInUse.add(entry);
  return call.finally(() => handlesInUse.delete(entry));
}
