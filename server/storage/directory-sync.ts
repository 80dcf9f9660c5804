// fsync of a directory, shared by the puts that need it at the same time (a group commit): a put
// whose rename finished while an fsync of its directory is already running may not be covered by
// that one (it may have started before the rename), so it waits for the next fsync, which starts
// when the running one ends and covers every put that queued meanwhile. A put's promise resolves
// only after an fsync that started after its rename: the rename is on disk, as before, but 100
// small files renamed at once cost a few directory fsyncs instead of 100.

type Sync = (directory: string) => Promise<void>;

interface DirectoryState {
  running: Promise<void> | undefined;
  queued: Promise<void> | undefined;
}

const ignore = () => undefined;

export class DirectorySync {
  private readonly states = new Map<string, DirectoryState>();

  constructor(private readonly fsync: Sync) {}

  /** Resolves once an fsync of `directory` that started after this call has finished. */
  sync(directory: string): Promise<void> {
    let state = this.states.get(directory);
    if (!state) {
      state = { running: undefined, queued: undefined };
      this.states.set(directory, state);
    }
    const running = state.running;
    if (running === undefined) return this.start(directory, state);
    const current = state;
    current.queued ??= running.then(ignore, ignore).then(() => {
      current.queued = undefined;
      return this.start(directory, current);
    });
    return current.queued;
  }

  private start(directory: string, state: DirectoryState): Promise<void> {
    const run: Promise<void> = this.fsync(directory).finally(() => {
      if (state.running === run) state.running = undefined;
      if (state.running === undefined && state.queued === undefined) this.states.delete(directory);
    });
    state.running = run;
    return run;
  }
}
