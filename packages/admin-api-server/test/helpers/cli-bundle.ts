import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_KEYS } from './test-server';

export const PACKAGE_DIR = resolve(__dirname, '..', '..');

/**
 * Builds src/cli.ts the way tsup.config.ts builds dist/cli.js (CommonJS, node20), so a test runs
 * the same `node cli.js serve` the Dockerfile runs, from the current sources. The bundle goes
 * inside the package's node_modules so it resolves its dependencies as dist/ does. Returns the
 * directory holding `cli.js`; the caller removes it. A bench may build another checkout's package
 * (`packageDir`, with its own tsup) into a directory of its choice (`outDir`).
 */
export function buildCliBundle(packageDir = PACKAGE_DIR, outDir?: string): string {
  if (outDir === undefined) {
    const cache = join(packageDir, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    outDir = mkdtempSync(join(cache, 'canopy-admin-api-cli-'));
  }
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
  return outDir;
}

/** Resolves with the port a `serve` child logs as listening; rejects if it exits first. */
export function waitForListening(child: ChildProcess, stderr: string[] = []): Promise<number> {
  return new Promise((resolvePort, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'listening') resolvePort(entry.port);
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`serve exited early with ${code}: ${stderr.join('')}`)),
    );
  });
}

/**
 * Starts `node cli.js serve` from a bundle on `databaseUrl` with the test signing key, on
 * 127.0.0.1 and a free port, plus `env`; resolves with the child and its port.
 */
export async function startServeProcess(
  outDir: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(outDir, 'cli.js'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      CANOPY_TOKEN_SIGNING_KEYS: `${TEST_KEYS[0]!.id}:${TEST_KEYS[0]!.secret}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk) => stderr.push(String(chunk)));
  try {
    return { child, port: await waitForListening(child, stderr) };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
