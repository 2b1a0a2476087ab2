import { randomUUID } from 'node:crypto';
import type { ActivityLogReport } from '@canopy/platform-protocol';
import type { Logger } from '../toolkit/interfaces/logger';
import type { ActivityLogInput, ActivityLogRecorder } from './agent-services';
import type { PlatformHttpClient } from './platform-http-client';

/** One activity log as sent to the platform (`POST /liana/v1/activity-logs`, the wire type). */
export type ActivityLogEntry = ActivityLogInput & Pick<ActivityLogReport, 'id' | 'createdAt'>;

/** Tuning of {@link ActivityLogReporter}. */
export interface ActivityLogReporterOptions {
  /**
   * Logs per request; default 500, at most 1000 (the platform's maximum). A log still waits at
   * most `flushIntervalMs`. Under load, 500 logs make one call instead of five at 100, and their
   * JSON (~100 KB) stays under V8's large-object size, so it is collected young instead of
   * landing in the old space.
   */
  batchSize?: number;
  /** How long a log may wait for companions before its batch is sent; default 1 s. */
  flushIntervalMs?: number;
  /** Logs kept in memory while the platform is unreachable; the oldest go first. Default 10 000. */
  maxQueueSize?: number;
  /** First delay after a failed send, doubled on each failure up to `maxRetryDelayMs`; default 1 s. */
  retryDelayMs?: number;
  /** Default 60 s. */
  maxRetryDelayMs?: number;
}

const PATH = '/liana/v1/activity-logs';

/** The longest failure reason sent; a longer one is cut (the platform refuses over 1000). */
export const MAX_ERROR_MESSAGE_LENGTH = 500;

/** A failure reason as sent: one line, at most {@link MAX_ERROR_MESSAGE_LENGTH} characters. */
export function shortErrorMessage(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_ERROR_MESSAGE_LENGTH) return line;
  return `${line.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1)}…`;
}

/**
 * A queued log: the caller's input as given and the operation's time as a number. The entry sent
 * to the platform (id, ISO `createdAt`, then the input's fields) is built at send time, and so is
 * the id, kept for resends: a log waits up to a second in the queue, long enough for V8 to move
 * what it holds to the old space, so it holds as little as it can (a UUID string alone is a
 * twenty-piece rope until it is first read).
 */
interface QueuedLog {
  readonly input: ActivityLogInput;
  readonly at: number;
  id: string | undefined;
}

function toEntry(log: QueuedLog): ActivityLogEntry {
  log.id ??= randomUUID();
  const entry = { id: log.id, createdAt: new Date(log.at).toISOString(), ...log.input };
  if (entry.errorMessage !== undefined) entry.errorMessage = shortErrorMessage(entry.errorMessage);
  return entry;
}

/**
 * Reports agent operations to the platform's activity log. `record` only queues (it never
 * throws and never waits on the network); batches go out after `flushIntervalMs` or as soon as
 * `batchSize` logs wait, one request at a time. A failed batch stays at the head of the queue and
 * is retried with exponential backoff; the queue is bounded, dropping the oldest logs (with a
 * warning) when the platform stays unreachable. `close()` flushes what is left.
 */
export class ActivityLogReporter implements ActivityLogRecorder {
  private readonly queue: QueuedLog[] = [];
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly maxQueueSize: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private failures = 0;
  private dropped = 0;
  private closed = false;

  constructor(
    private readonly http: PlatformHttpClient,
    private readonly logger: Logger,
    options: ActivityLogReporterOptions = {},
  ) {
    this.batchSize = Math.min(options.batchSize ?? 500, 1000);
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.maxQueueSize = options.maxQueueSize ?? 10_000;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  }

  /** Logs waiting to be sent. */
  get pending(): number {
    return this.queue.length;
  }

  record(entry: ActivityLogInput): void {
    if (this.closed) {
      this.logger(
        'Warn',
        `Activity log "${entry.label}" arrived after the agent stopped; not sent.`,
      );
      return;
    }
    this.queue.push({ input: entry, at: Date.now(), id: undefined });
    if (this.queue.length > this.maxQueueSize) {
      this.queue.shift();
      if (this.dropped === 0) {
        this.logger(
          'Warn',
          `The activity-log queue is full (${this.maxQueueSize} logs): the platform is not ` +
            'accepting them, so the oldest are being dropped.',
        );
      }
      this.dropped += 1;
    }
    if (this.failures > 0) return;
    if (this.queue.length >= this.batchSize) this.schedule(0);
    else this.schedule(this.flushIntervalMs);
  }

  /** Sends every queued log now; resolves when the queue is empty or a send failed. */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.queue.length > 0) {
      if (!(await this.sendBatch())) return;
    }
  }

  /**
   * Stops the timers and flushes what is queued, giving up after `timeoutMs`; logs that could
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
        `${this.queue.length} activity logs could not be sent to the platform before the agent stopped.`,
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
          this.schedule(this.queue.length >= this.batchSize ? 0 : this.flushIntervalMs);
        }
      });
    }, delayMs);
    this.timer.unref();
  }

  private backoff(): number {
    return Math.min(this.retryDelayMs * 2 ** (this.failures - 1), this.maxRetryDelayMs);
  }

  /** Sends the head of the queue; resolves whether it was accepted. */
  private async sendBatch(): Promise<boolean> {
    if (this.sending) {
      await this.sending;
      return this.failures === 0;
    }
    const count = Math.min(this.queue.length, this.batchSize);
    if (count === 0) return true;
    const batch: ActivityLogEntry[] = new Array(count);
    for (let index = 0; index < count; index += 1) batch[index] = toEntry(this.queue[index]!);
    let accepted = false;
    this.sending = (async () => {
      try {
        await this.http.request(PATH, { method: 'POST', body: { logs: batch }, retries: 0 });
        this.queue.splice(0, batch.length);
        accepted = true;
        this.failures = 0;
        if (this.dropped > 0) {
          this.logger(
            'Warn',
            `${this.dropped} activity logs were dropped while the platform was unreachable.`,
          );
          this.dropped = 0;
        }
      } catch (error) {
        this.failures += 1;
        this.logger(
          this.failures === 1 ? 'Warn' : 'Debug',
          `Sending ${batch.length} activity logs failed (${(error as Error).message}); ` +
            `${this.queue.length} are kept and will be retried.`,
        );
      }
    })();
    await this.sending;
    this.sending = undefined;
    return accepted;
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
