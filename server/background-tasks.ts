// Work a request starts that outlives its response (e.g. marking a file downloaded once the last
// byte went out). Tracked so that closing the app waits for it before the database closes, and so
// that tests can wait until the server has finished everything a request set off instead of
// sleeping and hoping.
export class BackgroundTasks {
  private readonly pending = new Set<Promise<unknown>>();

  /** Runs `task` in the background; its failure goes to `onError`, never to the caller. */
  run(task: () => Promise<unknown>, onError: (error: unknown) => void): void {
    const running = task().catch(onError);
    this.pending.add(running);
    void running.finally(() => this.pending.delete(running));
  }

  /** Resolves once every task started so far (and any they start) has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
