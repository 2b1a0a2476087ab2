/**
 * The Console's one live stream of the platform (docs/public-api.md §8): a single-use ticket
 * (`POST …/live/tickets`, with the user's token) opens an `EventSource`; after a drop a new
 * ticket opens a new one that resumes after the last event seen (`?lastEventId=`), with an
 * exponential backoff between attempts. The browser's own reconnection is not used: it would
 * send the spent ticket again. Plain TypeScript, no React.
 */
import { CONSOLE_EVENT_NAMES, type ConsoleEventName } from '@canopy/platform-protocol';

/** `connecting`: not open yet; `open`: events flow; `down`: the last attempt failed. */
export type LiveStatus = 'connecting' | 'open' | 'down';

export interface LiveEvent {
  type: ConsoleEventName;
  data: unknown;
}

/** What the client needs of an `EventSource` (a test passes its own). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface LiveStreamOptions {
  /** Gets a ticket: the stream's URL (`url` of the ticket answer). */
  ticket(): Promise<string>;
  onEvent(event: LiveEvent): void;
  onStatus(status: LiveStatus): void;
  /** Opens the stream; `new EventSource(url)` by default. */
  open?(url: string): EventSourceLike;
  /** First delay after a failure (doubled each time), and the longest; 1 s and 30 s. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  random?(): number;
}

/** The delay before attempt `attempt` (0-based) after a failure: doubling, capped, jittered. */
export function backoffDelay(
  attempt: number,
  initialMs = 1000,
  maxMs = 30_000,
  random: () => number = Math.random,
): number {
  const full = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  // Between half and all of it, so that many Consoles a restarted server dropped do not all
  // come back in the same millisecond.
  return Math.round(full * (0.5 + random() / 2));
}

/** The stream URL with where to resume from, when there is an event to resume after. */
export function resumeUrl(url: string, lastEventId: string | undefined): string {
  if (!lastEventId) return url;
  return `${url}${url.includes('?') ? '&' : '?'}lastEventId=${encodeURIComponent(lastEventId)}`;
}

export class LiveStream {
  private source: EventSourceLike | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private stopped = true;
  private lastEventId: string | undefined;
  /** The `streamId` of the open stream's `ready` event (for presence heartbeats). */
  streamId: string | undefined;

  constructor(private readonly options: LiveStreamOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.options.onStatus('connecting');
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.source?.close();
    this.source = undefined;
    this.streamId = undefined;
  }

  private async connect(): Promise<void> {
    let url: string;
    try {
      url = await this.options.ticket();
    } catch {
      this.fail();
      return;
    }
    if (this.stopped) return;
    const open = this.options.open ?? ((target: string) => new EventSource(target));
    const source = open(resumeUrl(url, this.lastEventId));
    this.source = source;
    for (const type of CONSOLE_EVENT_NAMES) {
      source.addEventListener(type, (message) => {
        if (this.source !== source) return;
        if (message.lastEventId) this.lastEventId = message.lastEventId;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return; // Not an event of §8: nothing to do with it.
        }
        if (type === 'ready') {
          this.attempt = 0;
          this.streamId = (data as { streamId?: string }).streamId;
          this.options.onStatus('open');
        }
        this.options.onEvent({ type, data });
      });
    }
    source.onerror = () => {
      if (this.source !== source) return;
      source.close();
      this.source = undefined;
      this.streamId = undefined;
      this.fail();
    };
  }

  private fail(): void {
    if (this.stopped) return;
    this.options.onStatus('down');
    const { initialDelayMs, maxDelayMs, random } = this.options;
    const delay = backoffDelay(this.attempt, initialDelayMs, maxDelayMs, random);
    this.attempt += 1;
    this.timer = setTimeout(() => void this.connect(), delay);
  }
}
