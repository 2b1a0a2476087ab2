import { useTestDatabase } from '@canopy/test-databases';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import type { AdminApiServer } from '../src';
import { startTestServer } from './helpers/test-server';

// Finding 5 of issue 17: HSTS and upgrade-insecure-requests on plain HTTP broke the login forms
// of a server reached at http://host:port.

const db = useTestDatabase('postgres');
let plain: AdminApiServer;
let proxied: AdminApiServer;

beforeAll(async () => {
  plain = await startTestServer(db());
  proxied = await startTestServer(db(), { trustProxy: true });
});
afterAll(async () => {
  await plain.close();
  await proxied.close();
});

it('sends neither HSTS nor upgrade-insecure-requests over plain HTTP', async () => {
  for (const path of ['/health', '/oidc/device']) {
    const response = await request(plain.app).get(path);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['content-security-policy']).toBeDefined();
    expect(response.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  }
});

it('sends both when served over TLS through a trusted proxy, and not for an untrusted one', async () => {
  const overTls = await request(proxied.app).get('/health').set('X-Forwarded-Proto', 'https');
  expect(overTls.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(overTls.headers['content-security-policy']).toMatch(/upgrade-insecure-requests/);
  const spoofed = await request(plain.app).get('/health').set('X-Forwarded-Proto', 'https');
  expect(spoofed.headers['strict-transport-security']).toBeUndefined();
});

it('sets exactly the headers helmet itself sets, over plain HTTP and over TLS', async () => {
  // Helmet run per request, as the pipeline did before it recorded helmet's headers once.
  const reference = express();
  reference.disable('x-powered-by');
  reference.set('trust proxy', true);
  const overTls = helmet();
  const plainHttp = helmet({
    strictTransportSecurity: false,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
  reference.use((req, res, next) => (req.secure ? overTls : plainHttp)(req, res, next));
  reference.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const helmetHeaders = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !UNRELATED.has(name)));
  for (const proto of ['http', 'https']) {
    const expected = await request(reference).get('/health').set('X-Forwarded-Proto', proto);
    const actual = await request(proxied.app).get('/health').set('X-Forwarded-Proto', proto);
    expect(Object.keys(expected.headers)).toEqual(
      Object.keys(actual.headers).filter((name) => name !== 'request-id'),
    );
    expect(helmetHeaders(actual.headers)).toEqual(helmetHeaders(expected.headers));
  }
});

/** Headers of the answer itself rather than helmet's. */
const UNRELATED = new Set([
  'request-id',
  'content-type',
  'content-length',
  'etag',
  'date',
  'connection',
  'keep-alive',
]);
