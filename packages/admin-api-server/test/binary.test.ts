import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { useTestDatabase } from '@canopy/test-databases';
import { validateFetchResponse } from './helpers/openapi-validator';
import { TEST_KEYS } from './helpers/test-server';

const db = useTestDatabase('postgres');
const packageDir = resolve(__dirname, '..');
let outDir: string;

beforeAll(() => {
  // Builds src/cli.ts the way tsup.config.ts builds dist/cli.js (CommonJS, node20), so the test
  // runs the same `node cli.js serve` the Dockerfile runs, from the current sources.
  // Inside the package's node_modules so that the bundle resolves its dependencies like dist/.
  const cache = join(packageDir, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, 'canopy-admin-api-cli-'));
  const build = spawnSync(
    process.execPath,
    [
      require.resolve('tsup/dist/cli-default.js', { paths: [packageDir] }),
      'src/cli.ts',
      '--no-config',
      '--format',
      'cjs',
      '--target',
      'node20',
      '--platform',
      'node',
      '--out-dir',
      outDir,
    ],
    { cwd: packageDir, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`tsup failed: ${build.stderr}`);
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function waitForListening(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'listening') resolvePort(entry.port);
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
}

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
