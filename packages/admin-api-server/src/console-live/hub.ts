import type { Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { coalescedRead } from '../agent-protocol/coalesced-read';
import {
  consoleEventsAfter,
  lastConsoleEventId,
  pruneConsoleEvents,
  replayConsoleEvents,
  type ConsoleEventRow,
} from '../store/console-events';
import { closeStream, expirePresence, registerStream, renewStreams } from '../store/presence';

/** How often the database is read while no LISTEN connection is up. */
const POLL_MS = 250;
/** How often it is read while LISTEN is up (a safety net for a lost notification). */
const LISTENING_POLL_MS = 5_000;
/** Interval of the heartbeat comment that keeps proxies from closing an idle stream. */
export const CONSOLE_HEARTBEAT_MS = 15_000;
/** How often old events and expired tickets are deleted. */
const PRUNE_MS = 600_000;
/** How often expired presences are cleared (and announced). */
const EXPIRE_MS = 5_000;
/** Events read per database round trip. */
const BATCH = 1_000;

/** One open Console stream: whose, where, and what they may see. */
export interface ConsoleStreamPlace {
  userId: number;
  projectId: number;
  environmentId: number;
  admin: boolean;
  /** As the notes list filters: `undefined` (every note), `'all'` (none) or hidden collections. */
  hidden: undefined | 'all' | readonly string[];
}

interface Stream extends ConsoleStreamPlace {
  /** Its id in `console_streams` (sent in `ready`; a presence heartbeat may name it). */
  id: string;
  /** The highest event id written (or skipped as before the stream). */
  lastId: bigint;
  /** Events heard while the replay of `Last-Event-ID` is read; written after it. */
  pending?: ConsoleEventRow[];
}

/** Whether an event is for the member of a stream (tenancy first). */
export function isFor(event: ConsoleEventRow, stream: ConsoleStreamPlace): boolean {
  if (event.projectId !== stream.projectId) return false;
  if (event.environmentId !== null && event.environmentId !== stream.environmentId) return false;
  if (event.userId !== null && event.userId !== stream.userId) return false;
  if (event.adminsOnly && !stream.admin) return false;
  if (event.collectionName !== null && stream.hidden !== undefined) {
    if (stream.hidden === 'all' || stream.hidden.includes(event.collectionName)) return false;
  }
  return true;
}

/**
 * The Console streams of this process (docs/public-api.md §8). Events are rows of
 * `console_events` written in the transaction of each change, with a NOTIFY; the hub reads new
 * rows in id order when notified (through the agent event hub's LISTEN connection) or, without
 * LISTEN (the embedded store), every 250 ms: one read per process, never one per stream, so an
 * event raised on any replica reaches the streams of every replica.
 */
export class ConsoleHub {
  private readonly streams = new Map<Response, Stream>();
  private cursor = 0n;
  private started: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private prune: NodeJS.Timeout | undefined;
  private expire: NodeJS.Timeout | undefined;
  private lastPoll = 0;
  private closed = false;

  constructor(
    private readonly knex: Knex,
    private readonly logger: Logger,
    /** Whether notifications are heard (then reads are triggered by them). */
    private readonly listening: () => boolean = () => false,
  ) {}

  /** Starts reading from the newest stored event (older ones are only replayed on request). */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.cursor = BigInt(await lastConsoleEventId(this.knex));
      this.timer = setInterval(() => {
        const every = this.listening() ? LISTENING_POLL_MS : POLL_MS;
        if (Date.now() - this.lastPoll >= every - 10) void this.poll();
      }, POLL_MS);
      this.heartbeat = setInterval(() => {
        this.writeAll(': heartbeat\n\n');
        const ids = [...this.streams.values()].map((stream) => stream.id);
        renewStreams(this.knex, ids).catch((error: unknown) =>
          this.logger.warn({ err: error }, 'renewing console streams failed'),
        );
      }, CONSOLE_HEARTBEAT_MS);
      this.expire = setInterval(() => {
        expirePresence(this.knex).catch((error: unknown) =>
          this.logger.warn({ err: error }, 'expiring presence failed'),
        );
      }, EXPIRE_MS);
      this.prune = setInterval(() => {
        pruneConsoleEvents(this.knex).catch((error: unknown) =>
          this.logger.warn({ err: error }, 'pruning console events failed'),
        );
      }, PRUNE_MS);
    })();
    return this.started;
  }

  /** A notification arrived: read the new events now. */
  notified(): void {
    void this.poll();
  }

  /** How many streams are open on this process (for tests and diagnostics). */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream on `response`. With `lastEventId`, the events after it are replayed first,
   * or a `resync` event is sent when they cannot be. Then a `ready` event whose id is where a
   * reconnecting client resumes when no other event came.
   */
  async subscribe(
    response: Response,
    place: ConsoleStreamPlace,
    lastEventId: bigint | undefined,
  ): Promise<void> {
    await this.start();
    const id = await registerStream(this.knex, place);
    const upTo = this.cursor;
    const stream: Stream = { ...place, id, lastId: upTo, pending: [] };
    this.streams.set(response, stream);
    response.on('close', () => {
      this.streams.delete(response);
      // On shutdown the rows are left to expire: the clients reconnect to another server.
      if (this.closed) return;
      closeStream(this.knex, id, place).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'closing a console stream failed'),
      );
    });
    response.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.flushHeaders();
    response.write('retry: 3000\n\n');
    if (lastEventId !== undefined) {
      const replay = await replayConsoleEvents(this.knex, place, lastEventId, upTo);
      if (replay === undefined) {
        const reason = lastEventId > upTo ? 'unknown-id' : 'too-old';
        response.write(frame(upTo, 'resync', JSON.stringify({ reason })));
      } else {
        for (const event of replay) if (isFor(event, place)) this.write(response, stream, event);
      }
    }
    response.write(frame(upTo, 'ready', JSON.stringify({ streamId: id })));
    const pending = stream.pending ?? [];
    stream.pending = undefined;
    for (const event of pending) this.deliver(response, stream, event);
  }

  /** Ends every stream and stops reading. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    clearInterval(this.prune);
    clearInterval(this.expire);
    for (const response of this.streams.keys()) response.end();
    this.streams.clear();
  }

  private readonly poll = coalescedRead(
    () => this.readEvents(),
    () => this.closed,
  );

  private async readEvents(): Promise<void> {
    if (this.closed || !this.started) return;
    this.lastPoll = Date.now();
    try {
      await this.started;
      for (;;) {
        const events = await consoleEventsAfter(this.knex, this.cursor.toString(), BATCH);
        for (const event of events) {
          this.cursor = BigInt(event.id);
          for (const [response, stream] of this.streams) this.deliver(response, stream, event);
        }
        if (events.length < BATCH) break;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'reading console events failed; retrying');
    }
  }

  private deliver(response: Response, stream: Stream, event: ConsoleEventRow): void {
    if (stream.pending) {
      stream.pending.push(event);
      return;
    }
    if (BigInt(event.id) <= stream.lastId || !isFor(event, stream)) return;
    this.write(response, stream, event);
  }

  private write(response: Response, stream: Stream, event: ConsoleEventRow): void {
    stream.lastId = BigInt(event.id);
    response.write(frame(stream.lastId, event.event, event.data));
  }

  private writeAll(chunk: string): void {
    for (const response of this.streams.keys()) response.write(chunk);
  }
}

function frame(id: bigint, event: string, data: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}
