import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { useTestDatabase } from '@canopy/test-databases';
import { validateFetchResponse } from './helpers/openapi-validator';
import { runCli } from '../src';
import { TEST_KEYS, recordingCliIo } from './helpers/test-server';
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

it('registers agent clients with oidc-provider reading the body itself: no "already parsed" warning', async () => {
  const bootstrap = recordingCliIo(db().url);
  const args = ['bootstrap', '--project', 'Oidc', '--environment', 'Production'];
  expect(await runCli([...args, '--admin-email', 'oidc@example.com'], bootstrap)).toBe(0);
  const secret = bootstrap.stdout.at(-1)!;
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
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    const port = await waitForListening(child);
    const register = (body: string) =>
      fetch(`http://127.0.0.1:${port}/oidc/reg`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body,
      });
    // The client asks for its own redirect URI and environment: it gets the platform's.
    const created = await register(
      JSON.stringify({ redirect_uris: ['https://evil.example/cb'], canopy_environment_id: '999' }),
    );
    const client = (await created.json()) as { client_id: string; redirect_uris: string[] };
    expect(created.status).toBe(201);
    expect(client.redirect_uris).toEqual([`http://127.0.0.1:${port}/oidc/callback`]);
    const stored = await runSql(
      "SELECT payload->>'canopy_environment_id' AS env FROM oidc_payloads WHERE model = 'Client' AND id = $1",
      [client.client_id],
    );
    const expected = await runSql(
      "SELECT e.id FROM environments e JOIN projects p ON p.id = e.project_id WHERE p.name = 'Oidc'",
      [],
    );
    expect(stored).toEqual([{ env: String(expected[0]!.id) }]);

    const nul = await register(JSON.stringify({ client_name: 'a\u0000b' }));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: expect.stringMatching(/NUL/),
    });
    const deep = await register('['.repeat(100) + ']'.repeat(100));
    expect(deep.status).toBe(400);
    const noSecret = await fetch(`http://127.0.0.1:${port}/oidc/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noSecret.status).toBe(401);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  expect(output.join('')).not.toMatch(/already parsed/i);
}, 60_000);

async function runSql(sql: string, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
  const { openDatabase } = await import('../src/database/open-database');
  const database = await openDatabase({ kind: 'url', url: db().url, poolSize: 1 });
  try {
    return (await database.knex.raw(sql.replace(/\$\d/g, '?'), values as never)).rows;
  } finally {
    await database.close();
  }
}
