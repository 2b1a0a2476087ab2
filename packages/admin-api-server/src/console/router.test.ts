import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { consoleRouter, type ConsoleOptions } from './router';

const assets = mkdtempSync(join(tmpdir(), 'canopy-console-assets-'));
mkdirSync(join(assets, 'assets'));
writeFileSync(join(assets, 'index.html'), '<!doctype html><title>Canopy Console</title>');
writeFileSync(join(assets, 'assets', 'index-abc.js'), 'console.log(1)');
// What the console's build writes beside each script: its brotli and gzip copies.
const vendor = `export const big = ${JSON.stringify('x'.repeat(5000))};`;
writeFileSync(join(assets, 'assets', 'vendor-def.js'), vendor);
writeFileSync(join(assets, 'assets', 'vendor-def.js.br'), brotliCompressSync(vendor));
writeFileSync(join(assets, 'assets', 'vendor-def.js.gz'), gzipSync(vendor));
writeFileSync(join(assets, 'csv-download-sw.js'), 'self.addEventListener("fetch", () => {});');
afterAll(() => rmSync(assets, { recursive: true, force: true }));

function app(options: ConsoleOptions) {
  const server = express();
  server.use(helmet());
  server.get('/v1/openapi.json', (_req, res) => res.json({ openapi: '3.1.0' }));
  server.use(consoleRouter(options, assets));
  server.use((req, res) => res.status(404).json({ code: 'route_not_found', path: req.path }));
  return server;
}

it('serves the app at / and for deep links that ask for HTML, with a CSP that reaches only itself without agents', async () => {
  const server = app({ enabled: true });
  for (const path of ['/', '/Shop/Production/data/orders/42']) {
    const res = await request(server).get(path).set('accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Canopy Console');
    expect(res.headers['content-security-policy']).toContain("connect-src 'self';");
  }
  const asset = await request(server).get('/assets/index-abc.js');
  expect(asset.status).toBe(200);
  expect(asset.headers['cache-control']).toContain('immutable');
});

it('sends the precompressed copy a browser accepts, cacheable for a year, and the HTML revalidated', async () => {
  const server = app({ enabled: true });
  const brotli = await request(server)
    .get('/assets/vendor-def.js')
    .set('accept-encoding', 'gzip, deflate, br, zstd');
  expect(brotli.status).toBe(200);
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(brotli.headers['vary']).toMatch(/accept-encoding/i);
  expect(brotli.headers['content-type']).toMatch(/javascript/);
  expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  // The build's brotli copy, byte for byte.
  expect(Number(brotli.headers['content-length'])).toBe(brotliCompressSync(vendor).length);
  // supertest decodes gzip itself: the text is the script.
  const gzip = await request(server).get('/assets/vendor-def.js').set('accept-encoding', 'gzip');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gzip.text).toBe(vendor);
  const plain = await request(server)
    .get('/assets/vendor-def.js')
    .set('accept-encoding', 'identity');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.text).toBe(vendor);
  const page = await request(server).get('/').set('accept', 'text/html');
  expect(page.headers['cache-control']).toBe('no-cache');
});

it('never shadows the platform paths, and answers 404 for missing assets', async () => {
  const server = app({ enabled: true });
  expect((await request(server).get('/v1/openapi.json')).body).toEqual({ openapi: '3.1.0' });
  for (const path of [
    '/v1/nothing',
    '/oidc/x',
    '/oauth/x',
    '/liana/x',
    '/forest/x',
    '/api/x',
    '/health/x',
    '/.well-known/x',
  ]) {
    const res = await request(server).get(path).set('accept', 'text/html');
    expect([path, res.status, res.body.code]).toEqual([path, 404, 'route_not_found']);
  }
  expect((await request(server).get('/assets/missing.js')).status).toBe(404);
  expect((await request(server).post('/Shop').set('accept', 'text/html')).status).toBe(404);
});

it('serves the download service worker (revalidated) and refuses download links it did not stream', async () => {
  const server = app({ enabled: true });
  const worker = await request(server).get('/csv-download-sw.js');
  expect(worker.status).toBe(200);
  expect(worker.headers['content-type']).toMatch(/javascript/);
  expect(worker.headers['cache-control']).toBe('no-cache');
  const link = await request(server)
    .get('/__canopy/download/abc/orders.csv')
    .set('accept', 'text/html');
  expect(link.status).toBe(410);
  expect(link.text).toMatch(/console tab that made it/);
});

it('serves no console.config.json: the console reads what it lists from /v1/me', async () => {
  const res = await request(app({ enabled: true })).get('/console.config.json');
  expect(res.status).toBe(404);
  expect(res.body.code).toBe('route_not_found');
});

it('serves nothing when turned off', async () => {
  const res = await request(app({ enabled: false }))
    .get('/')
    .set('accept', 'text/html');
  expect(res.status).toBe(404);
});

it('serves the app from an install under a dot-directory (node_modules/.pnpm), as in the image', async () => {
  const installed = join(assets, 'node_modules', '.pnpm', 'app');
  mkdirSync(installed, { recursive: true });
  writeFileSync(join(installed, 'index.html'), '<!doctype html><title>Installed Console</title>');
  const server = express().use(consoleRouter({ enabled: true }, installed));
  const res = await request(server).get('/').set('accept', 'text/html');
  expect(res.status).toBe(200);
  expect(res.text).toContain('Installed Console');
});

it('keeps the JSON 404 for API clients that do not ask for HTML', async () => {
  const res = await request(app({ enabled: true })).get('/v2/nothing');
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ code: 'route_not_found', path: '/v2/nothing' });
});

it("lets the console connect to the agents' origins it is given, and to no other host", async () => {
  const server = app({
    enabled: true,
    agentOrigins: async () => ['http://127.0.0.1:3351', 'https://agent.example.com'],
  });
  const res = await request(server).get('/').set('accept', 'text/html');
  const connect = String(res.headers['content-security-policy'])
    .split('; ')
    .find((directive: string) => directive.startsWith('connect-src'));
  expect(connect).toBe("connect-src 'self' http://127.0.0.1:3351 https://agent.example.com");
});

it('adds the configured origins (webhook hosts) to the agents, once each', async () => {
  const server = app({
    enabled: true,
    agentOrigins: async () => ['https://agent.example.com'],
    connectOrigins: ['https://hooks.example.com', 'https://agent.example.com'],
  });
  const res = await request(server).get('/').set('accept', 'text/html');
  const connect = String(res.headers['content-security-policy'])
    .split('; ')
    .find((directive: string) => directive.startsWith('connect-src'));
  expect(connect).toBe("connect-src 'self' https://agent.example.com https://hooks.example.com");
});

it('answers a browser with a page saying how to build the console when it is not built', async () => {
  const unbuilt = mkdtempSync(join(tmpdir(), 'canopy-console-unbuilt-'));
  try {
    const server = express()
      .use(consoleRouter({ enabled: true }, join(unbuilt, 'dist', 'app')))
      .use((req, res) => res.status(404).json({ code: 'route_not_found', path: req.path }));
    for (const path of ['/', '/Shop/Production/data/orders/42']) {
      const res = await request(server).get(path).set('accept', 'text/html,application/xhtml+xml');
      expect([path, res.status, res.headers['content-type']]).toEqual([
        path,
        503,
        expect.stringMatching(/^text\/html/),
      ]);
      expect(res.text).toContain('The Canopy Console is not built');
      expect(res.text).toContain('pnpm --filter @canopy/console build');
    }
    // An API client still gets the JSON 404 of an unknown route.
    const api = await request(server).get('/');
    expect([api.status, api.body.code]).toEqual([404, 'route_not_found']);
  } finally {
    rmSync(unbuilt, { recursive: true, force: true });
  }
});
