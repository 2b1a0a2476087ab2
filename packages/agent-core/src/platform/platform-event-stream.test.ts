import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { PlatformEventStream, type PlatformEventStreamOptions } from './platform-event-stream';
import { PlatformHttpClient } from './platform-http-client';

const SECRET = '9'.repeat(64);

type Script = (response: Response, attempt: number) => void;

let server: Server;
let url: string;
let script: Script;
let attempts: { lastEventId?: string; secret?: string; accept?: string }[];
const open = new Set<Response>();

beforeAll(async () => {
  const app = express();
  app.get('/liana/v4/subscribe-to-events', (request, response) => {
    attempts.push({
      lastEventId: request.get('last-event-id'),
      secret: request.get('forest-secret-key'),
      accept: request.get('accept'),
    });
    open.add(response);
    response.on('close', () => open.delete(response));
    script(response, attempts.length);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  attempts = [];
});

function subscribe(options: PlatformEventStreamOptions = {}) {
  const lines: string[] = [];
  const events: string[] = [];
  let reconnects = 0;
  const logger = (level: string, message: string) => lines.push(`${level} ${message}`);
  const http = new PlatformHttpClient({ serverUrl: url, envSecret: SECRET, logger });
  const stream = new PlatformEventStream(
    http,
    logger,
    {
      onEvent: (name, data) => events.push(`${name} ${data}`),
      onReconnect: () => {
        reconnects += 1;
      },
    },
    { reconnectDelayMs: 20, maxReconnectDelayMs: 40, ...options },
  );
  stream.start();
  return {
    stream,
    lines,
    events,
    reconnects: () => reconnects,
    async close() {
      await stream.close();
      http.close();
    },
  };
}

function stream(response: Response, body: string, end: boolean) {
  response.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  response.write(body);
  if (end) response.end();
}

// Conditions are waited for with a deadline far above what they take (milliseconds), so that a
// loaded machine does not fail them; the tests' own time limit is above that deadline.
jest.setTimeout(30_000);

async function eventually(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('PlatformEventStream', () => {
  it('delivers events, honours retry:, resumes with Last-Event-ID and reports the reopen', async () => {
    script = (response, attempt) =>
      attempt === 1
        ? stream(response, 'retry: 30\nid: 7\nevent: refresh-users\ndata: {}\n\n', true)
        : stream(response, 'event: heartbeat\ndata: {}\n\n', false);
    const subscription = subscribe();
    await eventually(() => attempts.length === 2 && subscription.stream.isOpen);
    expect(subscription.events).toEqual(['refresh-users {}', 'heartbeat {}']);
    expect(attempts[0]).toEqual({
      lastEventId: undefined,
      secret: SECRET,
      accept: 'text/event-stream',
    });
    expect(attempts[1]?.lastEventId).toBe('7');
    expect(subscription.reconnects()).toBe(1);
    await subscription.close();
    await eventually(() => open.size === 0);
  });

  it('logs once when no heartbeat arrives, and reopens a stream that went silent', async () => {
    script = (response) => stream(response, ': comment\n\n', false);
    const subscription = subscribe({ heartbeatTimeoutMs: 50, idleTimeoutMs: 120 });
    await eventually(() => attempts.length >= 2);
    expect(subscription.lines.filter((line) => line.includes('No heartbeat'))).toHaveLength(1);
    expect(subscription.lines.find((line) => line.includes('No heartbeat'))).toMatch(/^Error /);
    await subscription.close();
  });

  it('retries on 500 with a warning and stays closed on 401', async () => {
    script = (response, attempt) => {
      response.status(attempt === 1 ? 500 : 401).json({});
    };
    const subscription = subscribe();
    await eventually(() =>
      subscription.lines.some((line) => /^Warn .*answered 401; it stays closed/.test(line)),
    );
    expect(
      subscription.lines.some((line) => /^Warn .*answered 500; retrying later/.test(line)),
    ).toBe(true);
    // Past the 20 ms reconnection delay, no third attempt.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(attempts).toHaveLength(2);
    await subscription.close();
  });

  it('close() ends an open stream and cancels a pending reconnection', async () => {
    script = (response) => response.status(503).end();
    const subscription = subscribe({ reconnectDelayMs: 60_000 });
    await eventually(() => attempts.length === 1);
    const started = Date.now();
    await subscription.close();
    // The reconnection was a minute away: closed well before means it was cancelled.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
