import request from 'supertest';
import type { AdminApiServer } from '../../src';
import { signSessionToken } from '../../src';
import { TEST_KEYS } from './test-server';

/** One server-sent event as the Console reads it. */
export interface LiveEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** A Console session token of `userId`. */
export const consoleSession = (userId: number): string =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 600_000) });

/** An open Console stream: the events read so far, and a wait for the next matching one. */
export interface OpenStream {
  readonly events: LiveEvent[];
  /** The first event (already read or coming) matching `match`, within `ms`. */
  waitFor(match: (event: LiveEvent) => boolean, ms?: number): Promise<LiveEvent>;
  close(): void;
}

/** Gets a ticket as `userId` (through `server`) and opens the stream on `origin`. */
export async function openConsoleStream(
  server: AdminApiServer,
  origin: string,
  userId: number,
  place: { project: string; environment: string },
  lastEventId?: string,
): Promise<OpenStream> {
  const base = `/v1/project/${place.project}/environment/${place.environment}`;
  const ticket = await request(server.app)
    .post(`${base}/live/tickets`)
    .set('authorization', `Bearer ${consoleSession(userId)}`);
  if (ticket.status !== 201)
    throw new Error(`ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const controller = new AbortController();
  const response = await fetch(`${origin}${ticket.body.url as string}`, {
    signal: controller.signal,
    headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
  });
  if (response.status !== 200)
    throw new Error(`stream: ${response.status} ${await response.text()}`);
  const events: LiveEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          const event = field('event');
          if (event === undefined) continue;
          events.push({ id: field('id') ?? '', event, data: JSON.parse(field('data') ?? '{}') });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    waitFor(match, ms = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event in ${ms} ms; got ${JSON.stringify(events)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
