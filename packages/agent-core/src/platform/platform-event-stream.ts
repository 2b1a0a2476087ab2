import { createParser } from 'eventsource-parser';
import type { Logger } from '../toolkit/interfaces/logger';
import type { PlatformHttpClient } from './platform-http-client';

/** What the stream reports to its owner. */
export interface PlatformEventHandlers {
  /** A server-sent event, by its `event:` name, with its raw `data`. */
  onEvent(name: string, data: string): void;
  /** The stream reopened after having been open: events may have been missed. */
  onReconnect(): void;
}

/** Timings of {@link PlatformEventStream} (defaults follow protocol §7). */
export interface PlatformEventStreamOptions {
  /** Delay before reconnecting after the stream ended; a server `retry:` overrides it. Default 5 s. */
  reconnectDelayMs?: number;
  /** Longest delay between attempts while the platform keeps failing; default 60 s. */
  maxReconnectDelayMs?: number;
  /** A missing first heartbeat within this time is reported once (proxy buffering); default 45 s. */
  heartbeatTimeoutMs?: number;
  /** An open stream silent for this long is considered dead and reopened; default 120 s. */
  idleTimeoutMs?: number;
  /** Time limit to receive the response headers; default 10 s. */
  connectTimeoutMs?: number;
}

type Outcome = 'retry' | 'stop';

const PATH = '/liana/v4/subscribe-to-events';

/**
 * The subscription to the platform's server-sent events (`GET /liana/v4/subscribe-to-events`).
 * Reconnects when the stream ends or fails (with backoff while failures repeat, `Last-Event-ID`
 * when the server numbers events), reopens a stream that went silent, and stops for good on a
 * status that says retrying is pointless (404: unknown environment; other 4xx).
 */
export class PlatformEventStream {
  private readonly reconnectDelayMs: number;
  private readonly maxReconnectDelayMs: number;
  private readonly heartbeatTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly closing = new AbortController();
  private retryMs: number;
  private lastEventId: string | undefined;
  private opened = false;
  private open = false;
  private heartbeatSeen = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly openWaiters = new Set<() => void>();

  constructor(
    private readonly http: PlatformHttpClient,
    private readonly logger: Logger,
    private readonly handlers: PlatformEventHandlers,
    options: PlatformEventStreamOptions = {},
  ) {
    this.reconnectDelayMs = options.reconnectDelayMs ?? 5_000;
    this.maxReconnectDelayMs = options.maxReconnectDelayMs ?? 60_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 45_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.retryMs = this.reconnectDelayMs;
  }

  /** Whether the stream is currently open. */
  get isOpen(): boolean {
    return this.open;
  }

  /** Opens the stream in the background (never rejects; failures are logged and retried). */
  start(): void {
    if (this.running) return;
    this.heartbeatTimer = setTimeout(() => {
      if (!this.heartbeatSeen && !this.closing.signal.aborted) {
        this.logger(
          'Error',
          `No heartbeat arrived on the platform event stream (${this.http.url(PATH)}) within ` +
            `${this.heartbeatTimeoutMs / 1000} s: a proxy is probably buffering it, so permission ` +
            'changes will only be seen when caches expire.',
        );
      }
    }, this.heartbeatTimeoutMs);
    this.heartbeatTimer.unref();
    this.running = this.loop();
  }

  /** Resolves once the stream is open (or at once if it is), for callers that need events now. */
  waitUntilOpen(): Promise<void> {
    if (this.open) return Promise.resolve();
    return new Promise((resolve) => this.openWaiters.add(resolve));
  }

  /** Closes the stream and cancels every timer; resolves when the background loop has ended. */
  async close(): Promise<void> {
    this.closing.abort();
    clearTimeout(this.heartbeatTimer);
    for (const resolve of this.openWaiters) resolve();
    this.openWaiters.clear();
    await this.running;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.closing.signal.aborted) {
      const { outcome, wasOpen } = await this.connect();
      this.open = false;
      if (outcome === 'stop' || this.closing.signal.aborted) return;
      failures = wasOpen ? 0 : failures + 1;
      const delay =
        failures === 0
          ? this.retryMs
          : Math.min(this.retryMs * 2 ** (failures - 1), this.maxReconnectDelayMs);
      this.logger('Debug', `Reconnecting to the platform event stream in ${delay} ms.`);
      await this.sleep(delay);
    }
  }

  private async connect(): Promise<{ outcome: Outcome; wasOpen: boolean }> {
    const url = this.http.url(PATH);
    const attempt = new AbortController();
    const stopAttempt = () => attempt.abort();
    this.closing.signal.addEventListener('abort', stopAttempt, { once: true });
    let idle: NodeJS.Timeout | undefined;
    const touch = (ms: number) => {
      clearTimeout(idle);
      idle = setTimeout(stopAttempt, ms);
      idle.unref();
    };
    let wasOpen = false;
    try {
      touch(this.connectTimeoutMs);
      const headers: Record<string, string> = {
        ...this.http.authHeaders(),
        accept: 'text/event-stream',
        'cache-control': 'no-cache',
      };
      if (this.lastEventId !== undefined) headers['last-event-id'] = this.lastEventId;
      const response = await fetch(url, { headers, signal: attempt.signal });
      if (response.status !== 200 || !response.body) {
        await response.body?.cancel();
        return { outcome: this.onStatus(url, response.status), wasOpen };
      }

      wasOpen = true;
      this.open = true;
      if (this.opened) this.handlers.onReconnect();
      this.opened = true;
      this.logger('Debug', `Subscribed to the platform event stream at ${url}.`);
      for (const resolve of this.openWaiters) resolve();
      this.openWaiters.clear();

      const parser = createParser({
        onEvent: (event) => {
          if (event.id !== undefined) this.lastEventId = event.id;
          const name = event.event ?? 'message';
          if (name === 'heartbeat') this.heartbeatSeen = true;
          try {
            this.handlers.onEvent(name, event.data);
          } catch (error) {
            this.logger('Error', `Handling the platform event "${name}" failed.`, error);
          }
        },
        onRetry: (ms) => {
          this.retryMs = ms;
        },
      });
      const decoder = new TextDecoder();
      touch(this.idleTimeoutMs);
      for await (const chunk of response.body) {
        touch(this.idleTimeoutMs);
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      }
      this.logger('Debug', `The platform event stream at ${url} ended.`);
      return { outcome: 'retry', wasOpen };
    } catch (error) {
      if (!this.closing.signal.aborted) {
        const reason = attempt.signal.aborted
          ? 'no data within the time limit'
          : ((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
        this.logger(
          wasOpen || this.opened ? 'Debug' : 'Warn',
          `The platform event stream at ${url} failed (${reason}); it will be retried.`,
        );
      }
      return { outcome: 'retry', wasOpen };
    } finally {
      clearTimeout(idle);
      this.closing.signal.removeEventListener('abort', stopAttempt);
    }
  }

  private onStatus(url: string, status: number): Outcome {
    if (status === 502 || status === 503 || status === 504) {
      this.logger(
        'Debug',
        `The platform event stream at ${url} answered ${status}; retrying later.`,
      );
      return 'retry';
    }
    if (status >= 500) {
      this.logger(
        'Warn',
        `The platform event stream at ${url} answered ${status}; retrying later.`,
      );
      return 'retry';
    }
    if (status === 404) {
      this.logger(
        'Error',
        `The platform event stream at ${url} answered 404: the environment secret matches no ` +
          'environment. Permission changes will only be seen when caches expire.',
      );
      return 'stop';
    }
    this.logger(
      'Warn',
      `The platform event stream at ${url} answered ${status}; it stays closed and permission ` +
        'changes will only be seen when caches expire.',
    );
    return 'stop';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.closing.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.closing.signal.addEventListener('abort', done, { once: true });
    });
  }
}
