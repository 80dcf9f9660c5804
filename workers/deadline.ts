/**
 * A time limit on a promise that might never settle: a browser storage call whose answer is lost
 * (docs/upload.md, "Every OPFS call of the spool has a time limit"). The caller gets `timedOut()` as a
 * rejection once `ms` have passed; if the work settles after that, `late` receives its value so a
 * resource it holds (a file handle with an exclusive lock) can still be released.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, timedOut: () => Error, late?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(timedOut());
    }, ms);
    work.then(
      (value) => {
        if (expired) late?.(value);
        else {
          clearTimeout(timer);
          resolve(value);
        }
      },
      (error: unknown) => {
        if (expired) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
