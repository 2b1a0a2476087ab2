import type { RecordChangedEvent } from '@canopy/platform-protocol';
import type { Logger } from '../toolkit/interfaces/logger';
import type { RecordChangeRecorder } from './agent-services';
import { BatchQueue } from './batch-queue';
import { isPlatformError } from './platform-error';
import type { PlatformHttpClient } from './platform-http-client';

/** Tuning of {@link RecordChangeReporter}. */
export interface RecordChangeReporterOptions {
  /** Changes per flush (one request each, sent in turn); default 50. */
  batchSize?: number;
  /** How long a change may wait for companions before it is sent; default 100 ms. */
  flushIntervalMs?: number;
  /** Changes kept while the platform is unreachable; the oldest go first. Default 1000. */
  maxQueueSize?: number;
  /** Sends of one batch before it is dropped; default 3. */
  maxAttempts?: number;
  /** First delay after a failed send, doubled up to 5 s; default 500 ms. */
  retryDelayMs?: number;
}

const PATH = '/liana/v1/record-changes';

/**
 * Reports the writes the agent made to the platform, which relays them to the Console's live
 * streams (docs/platform-protocol.md §7.1). Best effort: `record` only queues; a batch goes out
 * after `flushIntervalMs` or at `batchSize` changes, one request per change (the route takes one
 * object); a failed batch is retried `maxAttempts` times (without the changes already taken),
 * then dropped with one warning. A change the platform refuses (`400`) is skipped.
 */
export class RecordChangeReporter implements RecordChangeRecorder {
  private readonly queue: BatchQueue<RecordChangedEvent>;

  constructor(http: PlatformHttpClient, logger: Logger, options: RecordChangeReporterOptions = {}) {
    // The changes of a batch already taken, not sent again when the batch is retried.
    const sent = new WeakSet<RecordChangedEvent>();
    this.queue = new BatchQueue<RecordChangedEvent>(
      async (batch) => {
        for (const change of batch) {
          if (sent.has(change)) continue;
          try {
            await http.request(PATH, { method: 'POST', body: change, retries: 0 });
          } catch (error) {
            // A change the platform refuses (400: e.g. a user who left the project) is skipped;
            // anything else fails the batch, which is retried.
            if (!isPlatformError(error) || error.responseStatus !== 400) throw error;
            logger('Debug', `The platform refused a record change: ${error.message}`);
          }
          sent.add(change);
        }
      },
      logger,
      {
        batchSize: options.batchSize ?? 50,
        flushIntervalMs: options.flushIntervalMs ?? 100,
        maxQueueSize: options.maxQueueSize ?? 1000,
        retryDelayMs: options.retryDelayMs ?? 500,
        maxRetryDelayMs: 5000,
        maxAttempts: options.maxAttempts ?? 3,
      },
      { items: 'record changes', queue: 'record-change queue' },
    );
  }

  /** Changes waiting to be sent. */
  get pending(): number {
    return this.queue.pending;
  }

  record(change: RecordChangedEvent): void {
    // After stop: nothing to tell anyone, the Console reloads when it reconnects.
    this.queue.push(change);
  }

  /** Sends every queued change now; resolves when the queue is empty or a send failed. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Stops the timers and flushes what is queued, giving up after `timeoutMs`. */
  close(timeoutMs = 2000): Promise<void> {
    return this.queue.close(timeoutMs);
  }
}
