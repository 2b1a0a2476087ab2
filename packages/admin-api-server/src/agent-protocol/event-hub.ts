import type { Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { prunePlatformEvents, recentPlatformEvents } from '../store/platform-events';

/** How often the database is polled for new events. */
const POLL_MS = 250;
/** How far back each poll looks (covers transactions that commit out of id order). */
const WINDOW_SECONDS = 30;
/** Interval of the `heartbeat` event (the agent expects one within 45 s). */
const HEARTBEAT_MS = 15_000;
/** How often old events are deleted (by whichever process gets there). */
const PRUNE_MS = 3_600_000;

/**
 * The server-sent event streams of the agents connected to this process. Events are rows of
 * `platform_events`, written in the transaction of each change, and found by polling, so an
 * event reaches agents connected to any process sharing the database (and works on the
 * embedded single-connection database, where LISTEN would hold the only connection).
 */
export class EventHub {
  private readonly streams = new Map<Response, number>();
  private readonly seen = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private prune: NodeJS.Timeout | undefined;
  private primed = false;
  private polling = false;

  constructor(
    private readonly knex: Knex,
    private readonly logger: Logger,
  ) {}

  /** Starts polling; events already stored are not replayed. */
  start(): void {
    this.timer = setInterval(() => void this.poll(), POLL_MS);
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

  /** Stops polling and ends every stream. */
  close(): void {
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    clearInterval(this.prune);
    for (const response of this.streams.keys()) response.end();
    this.streams.clear();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
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
    } finally {
      this.polling = false;
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
