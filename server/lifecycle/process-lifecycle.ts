// Where this process is in its life, for /readyz and the shutdown: starting until it listens,
// ready while it serves, draining once a stop signal came (from then on /readyz answers 503 so a
// balancer stops sending traffic, while requests already on their way are still served).
import { CUT_SETTLE_MS, InFlightUploads } from './in-flight-uploads.ts';

export type LifecycleState = 'starting' | 'ready' | 'draining';

export class ProcessLifecycle {
  private current: LifecycleState = 'starting';
  private deadlines: { cutAt: number; settleBy: number } | null = null;
  readonly uploads = new InFlightUploads();

  get state(): LifecycleState {
    return this.current;
  }

  markReady(): void {
    if (this.current === 'starting') this.current = 'ready';
  }

  /**
   * The stop signal: not ready any more. Uploads still streaming at `cutAt` (epoch ms) are cut, and
   * their writes have until `settleBy` to end.
   */
  beginDraining(cutAt: number, settleBy: number): void {
    this.current = 'draining';
    this.deadlines = { cutAt, settleBy };
  }

  /** When a closing app cuts uploads: the drain's times, or at once for a close without a stop signal. */
  uploadDeadlines(): { cutAt: number; settleBy: number } {
    const now = Date.now();
    return this.deadlines ?? { cutAt: now, settleBy: now + CUT_SETTLE_MS };
  }
}
