import type { Response } from 'express';
import type { Knex } from 'knex';
import type { Client } from 'pg';
import type { Logger } from 'pino';
import { ACCESS_CHANGES_CHANNEL } from '../store/access-changes';
import { coalescedRead } from './coalesced-read';
import { CONSOLE_EVENTS_CHANNEL } from '../store/console-events';
import {
  PLATFORM_EVENTS_CHANNEL,
  prunePlatformEvents,
  recentPlatformEvents,
} from '../store/platform-events';

/** How often the database is read for new events while no LISTEN connection is up. */
const POLL_MS = 250;
/**
 * How often it is read while LISTEN is up: only a safety net (a notification lost with a
 * connection); events are read when their NOTIFY arrives.
 */
const LISTENING_POLL_MS = 5_000;
/** Wait before opening a new LISTEN connection after one failed or ended. */
const RELISTEN_MS = 1_000;
/** How far back each poll looks (covers transactions that commit out of id order). */
const WINDOW_SECONDS = 30;
/** Interval of the `heartbeat` event (the agent expects one within 45 s). */
const HEARTBEAT_MS = 15_000;
/** How often old events are deleted (by whichever process gets there). */
const PRUNE_MS = 3_600_000;

/**
 * The server-sent event streams of the agents connected to this process. Events are rows of
 * `platform_events`, written in the transaction of each change with a NOTIFY on
 * {@link PLATFORM_EVENTS_CHANNEL}. Each process holds one LISTEN connection and reads the new
 * rows when a notification arrives, so an event reaches agents connected to any process sharing
 * the database at once; one read per process, never one per agent. Without LISTEN (`listen:
 * false`, for the embedded single-connection database, where it would hold the only connection,
 * or while the LISTEN connection is being reopened) the process reads every 250 ms instead.
 */
export class EventHub {
  private readonly streams = new Map<Response, number>();
  private readonly seen = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private prune: NodeJS.Timeout | undefined;
  private relisten: NodeJS.Timeout | undefined;
  private listener: Client | undefined;
  private primed = false;
  private closed = false;

  constructor(
    private readonly knex: Knex,
    private readonly logger: Logger,
    private readonly options: {
      listen: boolean;
      /**
       * Told when access changes are heard (LISTEN up on {@link ACCESS_CHANGES_CHANNEL}) or may be
       * missed (`setLive`), and of each announced change (`clear`): the token-context cache.
       */
      accessChanges?: { setLive(live: boolean): void; clear(): void };
      /** Told of each Console event announced on {@link CONSOLE_EVENTS_CHANNEL}: the Console hub. */
      consoleEvents?: { notified(): void };
    } = { listen: true },
  ) {}

  /** Starts listening (or polling); events already stored are not replayed. */
  start(): void {
    this.schedulePolls(POLL_MS);
    if (this.options.listen) void this.listen();
    this.heartbeat = setInterval(() => this.broadcast(undefined, 'heartbeat', '{}'), HEARTBEAT_MS);
    this.prune = setInterval(() => {
      prunePlatformEvents(this.knex).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'pruning platform events failed'),
      );
    }, PRUNE_MS);
    void this.poll();
  }

  /** Opens a stream for an agent of `projectId` on this response. */
  subscribe(response: Response, projectId: number): void {
    response.status(200).set({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.flushHeaders();
    response.write('event: heartbeat\ndata: {}\n\n');
    this.streams.set(response, projectId);
    response.on('close', () => this.streams.delete(response));
  }

  /** How many agent streams of a project are open on this process. */
  subscribers(projectId: number): number {
    return [...this.streams.values()].filter((id) => id === projectId).length;
  }

  /** Whether a LISTEN connection is up (for tests and diagnostics). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Stops listening and polling and ends every stream. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    clearInterval(this.prune);
    clearTimeout(this.relisten);
    this.dropListener();
    for (const response of this.streams.keys()) response.end();
    this.streams.clear();
  }

  private schedulePolls(intervalMs: number): void {
    clearInterval(this.timer);
    if (!this.closed) this.timer = setInterval(() => void this.poll(), intervalMs);
  }

  /** Opens the LISTEN connection (outside the pool); on failure or loss, polls and retries. */
  private async listen(): Promise<void> {
    let client: Client | undefined;
    try {
      client = (await (
        this.knex.client as { acquireRawConnection(): Promise<Client> }
      ).acquireRawConnection()) as Client;
      client.on('notification', (message) => {
        if (message.channel === ACCESS_CHANGES_CHANNEL) this.options.accessChanges?.clear();
        else if (message.channel === CONSOLE_EVENTS_CHANNEL) this.options.consoleEvents?.notified();
        else void this.poll();
      });
      client.on('error', (error) => this.listenerLost(client!, error));
      client.on('end', () => this.listenerLost(client!));
      await client.query(
        `LISTEN ${PLATFORM_EVENTS_CHANNEL}; LISTEN ${ACCESS_CHANGES_CHANNEL}; LISTEN ${CONSOLE_EVENTS_CHANNEL}`,
      );
    } catch (error) {
      if (client) endQuietly(client);
      this.retryListen(error);
      return;
    }
    if (this.closed) {
      endQuietly(client);
      return;
    }
    this.listener = client;
    // Changes made while no connection listened are unknown: start from an empty cache.
    this.options.accessChanges?.setLive(true);
    this.schedulePolls(LISTENING_POLL_MS);
    // Whatever committed while no connection listened.
    void this.poll();
  }

  private listenerLost(client: Client, error?: unknown): void {
    if (this.listener !== client) return;
    this.dropListener();
    if (!this.closed) this.retryListen(error);
  }

  private retryListen(error: unknown): void {
    if (this.closed) return;
    this.logger.warn({ err: error }, 'LISTEN for platform events unavailable; polling meanwhile');
    this.schedulePolls(POLL_MS);
    clearTimeout(this.relisten);
    this.relisten = setTimeout(() => void this.listen(), RELISTEN_MS);
  }

  private dropListener(): void {
    this.options.accessChanges?.setLive(false);
    if (this.listener) endQuietly(this.listener);
    this.listener = undefined;
  }

  private readonly poll = coalescedRead(
    () => this.readEvents(),
    () => this.closed,
  );

  private async readEvents(): Promise<void> {
    try {
      const events = await recentPlatformEvents(this.knex, WINDOW_SECONDS);
      const now = Date.now();
      for (const event of events) {
        if (this.seen.has(event.id)) continue;
        this.seen.set(event.id, now);
        if (this.primed) this.broadcast(event.projectId, event.event, event.data);
      }
      this.primed = true;
      for (const [id, at] of this.seen) {
        if (now - at > 2 * WINDOW_SECONDS * 1000) this.seen.delete(id);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'polling platform events failed; retrying');
    }
  }

  private broadcast(projectId: number | undefined, event: string, data: string): void {
    for (const [response, project] of this.streams) {
      if (projectId === undefined || project === projectId) {
        response.write(`event: ${event}\ndata: ${data}\n\n`);
      }
    }
  }
}

/** Closes a connection whose errors and end no longer matter. */
function endQuietly(client: Client): void {
  client.removeAllListeners('end');
  client.removeAllListeners('error');
  client.on('error', () => undefined);
  void client.end().catch(() => undefined);
}
