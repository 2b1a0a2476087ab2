import { randomUUID } from 'node:crypto';
import type { ActivityLogReport } from '@canopy/platform-protocol';
import type { Logger } from '../toolkit/interfaces/logger';
import type { ActivityLogInput, ActivityLogRecorder } from './agent-services';
import { BatchQueue } from './batch-queue';
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
  private readonly queue: BatchQueue<QueuedLog>;

  constructor(
    http: PlatformHttpClient,
    private readonly logger: Logger,
    options: ActivityLogReporterOptions = {},
  ) {
    this.queue = new BatchQueue<QueuedLog>(
      async (batch) => {
        await http.request(PATH, {
          method: 'POST',
          body: { logs: batch.map(toEntry) },
          retries: 0,
        });
      },
      logger,
      {
        batchSize: Math.min(options.batchSize ?? 500, 1000),
        flushIntervalMs: options.flushIntervalMs ?? 1000,
        maxQueueSize: options.maxQueueSize ?? 10_000,
        retryDelayMs: options.retryDelayMs ?? 1000,
        maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      },
      { items: 'activity logs', queue: 'activity-log queue' },
    );
  }

  /** Logs waiting to be sent. */
  get pending(): number {
    return this.queue.pending;
  }

  record(entry: ActivityLogInput): void {
    if (!this.queue.push({ input: entry, at: Date.now(), id: undefined })) {
      this.logger(
        'Warn',
        `Activity log "${entry.label}" arrived after the agent stopped; not sent.`,
      );
    }
  }

  /** Sends every queued log now; resolves when the queue is empty or a send failed. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /**
   * Stops the timers and flushes what is queued, giving up after `timeoutMs`; logs that could
   * not be sent are reported in a warning.
   */
  close(timeoutMs = 5000): Promise<void> {
    return this.queue.close(timeoutMs);
  }
}
