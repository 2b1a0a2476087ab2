import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { isPlatformError, type PlatformError } from './platform-error';
import { PlatformHttpClient } from './platform-http-client';

const SECRET = 'c'.repeat(64);
const logs: string[] = [];
const logger = (level: string, message: string) => logs.push(`${level} ${message}`);

let server: Server;
let baseUrl: string;
let answers: {
  status: number;
  body?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}[];
let received: { method: string; path: string; secret?: string; body: unknown }[];

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use((request, response) => {
    received.push({
      method: request.method,
      path: request.originalUrl,
      secret: request.get('forest-secret-key'),
      body: request.body,
    });
    const answer = answers.shift() ?? { status: 200, body: '{}' };
    setTimeout(() => {
      response.status(answer.status).set(answer.headers ?? {});
      response.type('application/json').send(answer.body ?? '');
    }, answer.delayMs ?? 0);
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ignored/base/path`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  answers = [];
  received = [];
  logs.length = 0;
});

function client(overrides: Partial<ConstructorParameters<typeof PlatformHttpClient>[0]> = {}) {
  return new PlatformHttpClient({
    serverUrl: baseUrl,
    envSecret: SECRET,
    logger,
    retryDelayMs: 5,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    expect(isPlatformError(error)).toBe(true);
    return error as PlatformError;
  }
  throw new Error('expected the call to fail');
}

describe('PlatformHttpClient', () => {
  it('sends JSON with the secret header at the origin root and parses the answer', async () => {
    answers.push({ status: 200, body: '{"sendSchema":true}' });
    const { body } = await client().request<{ sendSchema: boolean }>('/forest/apimaps/hashcheck', {
      method: 'POST',
      body: { schemaFileHash: 'abc' },
    });
    expect(body).toEqual({ sendSchema: true });
    expect(received).toEqual([
      {
        method: 'POST',
        path: '/forest/apimaps/hashcheck',
        secret: SECRET,
        body: { schemaFileHash: 'abc' },
      },
    ]);
  });

  it('retries transient failures with backoff, then succeeds', async () => {
    answers.push({ status: 503, body: '{}' }, { status: 502 }, { status: 200, body: '[1]' });
    const { body } = await client().request('/liana/v4/permissions/users');
    expect(body).toEqual([1]);
    expect(received).toHaveLength(3);
    expect(logs.filter((line) => line.startsWith('Debug'))).toHaveLength(2);
  });

  it('does not retry a client error and reports the platform detail with the URL', async () => {
    answers.push({ status: 403, body: '{"errors":[{"detail":"Environment is locked"}]}' });
    const error = await failure(client().request('/liana/v1/ip-whitelist-rules'));
    expect(error.code).toBe('PLATFORM_FORBIDDEN');
    expect(error.responseStatus).toBe(403);
    expect(error.message).toContain('GET http://127.0.0.1:');
    expect(error.message).toContain('/liana/v1/ip-whitelist-rules answered 403');
    expect(error.message).toContain('Environment is locked');
    expect(error.message).not.toContain(SECRET);
    expect(received).toHaveLength(1);
  });

  it.each([
    [404, 'PLATFORM_NOT_FOUND'],
    [503, 'PLATFORM_MAINTENANCE'],
    [500, 'PLATFORM_ERROR'],
  ])('maps status %d to %s after the retries', async (status, code) => {
    answers.push({ status }, { status }, { status });
    const error = await failure(client({ retries: status === 404 ? 0 : 2 }).request('/x'));
    expect(error.code).toBe(code);
  });

  it('times out an attempt and says so', async () => {
    answers.push({ status: 200, body: '{}', delayMs: 300 });
    const error = await failure(client({ timeoutMs: 50, retries: 0 }).request('/slow'));
    expect(error.code).toBe('PLATFORM_TIMEOUT');
    expect(error.message).toMatch(/did not answer GET .*\/slow within 0.05 s/);
  });

  it('names the URL when the platform is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(
      client({ serverUrl: `http://127.0.0.1:${port}`, retries: 1 }).request(
        '/liana/v1/ip-whitelist-rules',
      ),
    );
    expect(error.code).toBe('PLATFORM_UNREACHABLE');
    expect(error.message).toContain(
      `GET http://127.0.0.1:${port}/liana/v1/ip-whitelist-rules failed (ECONNREFUSED)`,
    );
  });

  it('rejects a 2xx body that is not JSON', async () => {
    answers.push({ status: 200, body: '<html>' });
    expect((await failure(client().request('/x'))).code).toBe('PLATFORM_BAD_RESPONSE');
  });

  it('close() cancels a pending backoff at once', async () => {
    answers.push({ status: 503 }, { status: 503 });
    const http = client({ retryDelayMs: 60_000 });
    const pending = failure(http.request('/x'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    http.close();
    expect((await pending).code).toBe('PLATFORM_CLIENT_CLOSED');
    expect((await failure(http.request('/y'))).code).toBe('PLATFORM_CLIENT_CLOSED');
  });

  it('sends form bodies and bearer tokens when asked', async () => {
    await client().request('/oidc/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'abc' }),
      auth: 'none',
    });
    await client().request('/oidc/reg', { method: 'POST', auth: { bearer: 'tok' }, body: {} });
    expect(received[0]).toMatchObject({ path: '/oidc/token', secret: undefined });
  });
});
