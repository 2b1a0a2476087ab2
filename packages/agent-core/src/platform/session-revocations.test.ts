import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PlatformHttpClient } from './platform-http-client';
import { PlatformSessionRevocations } from './session-revocations';

const SECRET = 'e'.repeat(64);
/** The suite's "now", fixed once: a second passing between two reads must not move it. */
const NOW = Math.floor(Date.now() / 1000);
/** Seconds since the epoch, `offset` seconds from the suite's now. */
const at = (offset: number) => NOW + offset;

describe('PlatformSessionRevocations', () => {
  let server: Server;
  let answer: { status: number; body: unknown };
  let http: PlatformHttpClient;
  const lines: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      expect(request.url).toBe('/liana/v1/agent-session-revocations');
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    http = new PlatformHttpClient({
      serverUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      envSecret: SECRET,
      logger: () => {},
      retryDelayMs: 5,
    });
  });

  afterAll(async () => {
    http.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const revocations = () =>
    new PlatformSessionRevocations(http, (level, message) => lines.push(`${level} ${message}`));

  it('forgets a sign-out older than a day: every token it refused has expired', () => {
    const list = revocations();
    list.handleEvent('revoke-agent-sessions', JSON.stringify({ userId: 5, before: at(-86_500) }));
    expect(list.isRevoked(5, at(-90_000))).toBe(false);
  });

  it('refuses the tokens of a signed-out user issued at or before the sign-out, only', () => {
    const list = revocations();
    list.handleEvent('revoke-agent-sessions', JSON.stringify({ userId: 7, before: at(-100) }));
    expect(list.isRevoked(7, at(-101))).toBe(true);
    expect(list.isRevoked(7, at(-100))).toBe(true);
    expect(list.isRevoked(7, at(-99))).toBe(false);
    expect(list.isRevoked(8, at(-101))).toBe(false);
    // An older sign-out heard later does not shorten a newer one.
    list.handleEvent('revoke-agent-sessions', JSON.stringify({ userId: 7, before: at(-500) }));
    expect(list.isRevoked(7, at(-101))).toBe(true);
    // Other events and malformed ones change nothing; a malformed one is logged.
    list.handleEvent('refresh-users', JSON.stringify({ userId: 8, before: at(0) }));
    list.handleEvent('revoke-agent-sessions', 'not json');
    list.handleEvent('revoke-agent-sessions', JSON.stringify({ userId: '8', before: at(0) }));
    expect(list.isRevoked(8, at(-1))).toBe(false);
    expect(lines.filter((line) => line.startsWith('Warn Ignoring'))).toHaveLength(2);
  });

  it('reads the recent sign-outs back, and keeps what it knows when the platform fails', async () => {
    const list = revocations();
    answer = {
      status: 200,
      body: { revocations: [{ userId: 3, before: at(-50) }, { userId: 'x' }] },
    };
    await list.load();
    expect(list.isRevoked(3, at(-50))).toBe(true);
    answer = { status: 404, body: { errors: [{ detail: 'Not found' }] } };
    await expect(list.load()).resolves.toBeUndefined();
    expect(list.isRevoked(3, at(-50))).toBe(true);
    expect(lines.at(-1)).toMatch(/^Warn Could not read the recent sign-outs from the platform/);
  });
});
