import type { Logger } from '../toolkit/interfaces/logger';

/** Tuning of a {@link BatchQueue}. */
export interface BatchQueueOptions {
  /** Items per send; a send takes the head of the queue, at most this many. */
  batchSize: number;
  /** How long an item may wait for companions before its batch is sent. */
  flushIntervalMs: number;
  /** Items kept in memory while the platform is unreachable; the oldest go first. */
  maxQueueSize: number;
  /** First delay after a failed send, doubled on each failure up to `maxRetryDelayMs`. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /**
   * Sends of one batch before it is dropped (with one warning); default unbounded (the batch
   * stays at the head of the queue until the platform takes it).
   */
  maxAttempts?: number;
}

/** What a queue says in its log lines: `activity logs`, `activity-log queue`. */
export interface BatchQueueWording {
  /** Plural noun of the items. */
  readonly items: string;
  /** Name of the queue. */
  readonly queue: string;
}

/**
 * The queue behind the agent's best-effort reports to the platform (activity logs, record
 * changes). `push` only queues (it never throws and never waits on the network); batches go out
 * after `flushIntervalMs` or as soon as `batchSize` items wait, one send at a time. A failed
 * batch stays at the head of the queue and is retried with exponential backoff (dropped after
 * `maxAttempts` when bounded); the queue is bounded, dropping the oldest items (with a warning)
 * when the platform stays unreachable. `close()` flushes what is left. Log lines name counts and
 * the platform's error message only, never an item's content or a secret.
 */
export class BatchQueue<T> {
  private readonly queue: T[] = [];
  private readonly maxAttempts: number;
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private failures = 0;
  private dropped = 0;
  /** A batch was given up since the platform last took one (later drops log at debug level). */
  private givenUp = false;
  private closed = false;

  constructor(
    private readonly send: (batch: T[]) => Promise<void>,
    private readonly logger: Logger,
    private readonly options: BatchQueueOptions,
    private readonly wording: BatchQueueWording,
  ) {
    this.maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  }

  /** Items waiting to be sent. */
  get pending(): number {
    return this.queue.length;
  }

  /** Whether `close()` was called (later items are refused). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues `item`; false (nothing queued) once the queue is closed. */
  push(item: T): boolean {
    if (this.closed) return false;
    this.queue.push(item);
    if (this.queue.length > this.options.maxQueueSize) {
      this.queue.shift();
      if (this.dropped === 0) {
        this.logger(
          'Warn',
          `The ${this.wording.queue} is full (${this.options.maxQueueSize} ${this.wording.items}): ` +
            'the platform is not accepting them, so the oldest are being dropped.',
        );
      }
      this.dropped += 1;
    }
    if (this.failures > 0) return true;
    if (this.queue.length >= this.options.batchSize) {
      // A full batch goes now, not when the timer of its first item fires.
      if (!this.sending) this.clearTimer();
      this.schedule(0);
    } else this.schedule(this.options.flushIntervalMs);
    return true;
  }

  /** Sends every queued item now; resolves when the queue is empty or a send failed. */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.queue.length > 0) {
      if (!(await this.sendBatch())) return;
    }
  }

  /**
   * Stops the timers and flushes what is queued, giving up after `timeoutMs`; items that could
   * not be sent are reported in a warning.
   */
  async close(timeoutMs = 5000): Promise<void> {
    this.closed = true;
    this.clearTimer();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    const flushing = (async () => {
      await this.sending;
      this.failures = 0;
      await this.flush();
    })();
    await Promise.race([flushing, deadline]);
    clearTimeout(timer);
    if (this.queue.length > 0) {
      this.logger(
        'Warn',
        `${this.queue.length} ${this.wording.items} could not be sent to the platform before the agent stopped.`,
      );
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer !== undefined || this.sending) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sendBatch().then((sent) => {
        if (this.closed) return;
        if (!sent) this.schedule(this.backoff());
        else if (this.queue.length > 0) {
          this.schedule(
            this.queue.length >= this.options.batchSize ? 0 : this.options.flushIntervalMs,
          );
        }
      });
    }, delayMs);
    this.timer.unref();
  }

  private backoff(): number {
    return Math.min(
      this.options.retryDelayMs * 2 ** (this.failures - 1),
      this.options.maxRetryDelayMs,
    );
  }

  /** Sends the head of the queue; resolves whether it left the queue (sent or given up). */
  private async sendBatch(): Promise<boolean> {
    if (this.sending) {
      await this.sending;
      return this.failures === 0;
    }
    const count = Math.min(this.queue.length, this.options.batchSize);
    if (count === 0) return true;
    const batch = this.queue.slice(0, count);
    let done = false;
    this.sending = (async () => {
      try {
        await this.send(batch);
        this.queue.splice(0, batch.length);
        done = true;
        this.failures = 0;
        this.givenUp = false;
        if (this.dropped > 0) {
          this.logger(
            'Warn',
            `${this.dropped} ${this.wording.items} were dropped while the platform was unreachable.`,
          );
          this.dropped = 0;
        }
      } catch (error) {
        this.failures += 1;
        const reason = (error as Error).message;
        if (this.failures >= this.maxAttempts) {
          this.queue.splice(0, batch.length);
          this.failures = 0;
          done = true;
          this.logger(
            this.givenUp ? 'Debug' : 'Warn',
            `Sending ${batch.length} ${this.wording.items} failed ${this.maxAttempts} times ` +
              `(${reason}); they are dropped` +
              (this.givenUp
                ? '.'
                : ' (later drops are logged at debug level until the platform answers).'),
          );
          this.givenUp = true;
          return;
        }
        this.logger(
          this.failures === 1 && !Number.isFinite(this.maxAttempts) ? 'Warn' : 'Debug',
          `Sending ${batch.length} ${this.wording.items} failed (${reason}); ` +
            `${this.queue.length} are kept and will be retried.`,
        );
      }
    })();
    await this.sending;
    this.sending = undefined;
    return done;
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
