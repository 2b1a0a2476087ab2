import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { useTestDatabase } from '@canopy/test-databases';
import { validateFetchResponse } from './helpers/openapi-validator';
import { TEST_KEYS } from './helpers/test-server';
import { PACKAGE_DIR, buildCliBundle, waitForListening } from './helpers/cli-bundle';

const db = useTestDatabase('postgres');
const packageDir = PACKAGE_DIR;
let outDir: string;

beforeAll(() => {
  outDir = buildCliBundle();
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('serve migrates, listens on PORT, answers, and stops cleanly on SIGTERM', async () => {
  const child = spawn(process.execPath, [join(outDir, 'cli.js'), 'serve'], {
    cwd: packageDir,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db().url,
      PORT: '0',
      HOST: '127.0.0.1',
      CANOPY_TOKEN_SIGNING_KEYS: `${TEST_KEYS[0]!.id}:${TEST_KEYS[0]!.secret}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk) => stderr.push(String(chunk)));
  const port = await waitForListening(child);
  const health = await fetch(`http://127.0.0.1:${port}/health`);
  const body = await health.json();
  validateFetchResponse('get', '/health', health, body);
  expect(health.status).toBe(200);
  expect(body).toEqual({ status: 'ok' });
  expect(health.headers.get('request-id')).toBeTruthy();
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stderr.join('')).toContain('SIGTERM received');
}, 30_000);

it('refuses to start without signing keys, naming the variable', () => {
  const run = spawnSync(process.execPath, [join(outDir, 'cli.js'), 'serve'], {
    env: { PATH: process.env.PATH, DATABASE_URL: db().url },
    encoding: 'utf8',
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('CANOPY_TOKEN_SIGNING_KEYS is required');
});
