/**
 * Runs `tick` every `everyMs` while the process lives, never two at once; `stop` waits for the
 * one under way. What the outbox's senders (webhooks, the broker) share.
 */
export class Poller {
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stoppedFlag = false;

  constructor(
    private readonly everyMs: number,
    private readonly tick: () => Promise<void>,
  ) {}

  /** Whether `stop` was called: failures seen after it are the shutdown's, not worth a log line. */
  get stopped(): boolean {
    return this.stoppedFlag;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stoppedFlag = true;
    clearInterval(this.timer);
    await this.ticking;
  }
}
