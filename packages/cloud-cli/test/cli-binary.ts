// Builds canopy-cloud (and the workspace packages it requires at run time) with tsup, packs them,
// installs the tarballs with npm into a directory (what `npm install -D @canopy/cloud-cli` gives a
// user), and runs the installed node_modules/.bin/canopy-cloud as a child process, as npx does.
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const packages = join(__dirname, '..', '..');
const tsup = require.resolve('tsup/dist/cli-default.js');

/**
 * Builds the CommonJS output of agent-core, datasource-sql and cloud-cli (no declarations: the
 * binary only needs JavaScript). Each package is built in its own directory so that its
 * dependencies stay external, as in the published packages.
 */
export async function buildBinary(): Promise<void> {
  for (const [name, entries] of [
    ['agent-core', ['src/index.ts']],
    ['datasource-sql', ['src/index.ts']],
    ['cloud-cli', ['src/index.ts', 'src/cli.ts']],
  ] as const) {
    await promisify(execFile)(
      process.execPath,
      [
        tsup,
        ...entries,
        '--no-config',
        '--format',
        'cjs',
        '--target',
        'node20',
        '--platform',
        'node',
        '--silent',
      ],
      { cwd: join(packages, name) },
    );
  }
}

const PACKED = ['agent-core', 'datasource-sql', 'cloud-cli'];

/**
 * Builds and packs the packages, then installs the tarballs into `directory` (which gets a
 * package.json); resolves to the installed `canopy-cloud` binary. Peer dependencies are not
 * installed (`--legacy-peer-deps`): PostgreSQL needs none of the optional SQL drivers.
 */
export async function installFromTarballs(directory: string): Promise<string> {
  await buildBinary();
  const tarballs = join(directory, 'tarballs');
  await mkdir(tarballs, { recursive: true });
  for (const name of PACKED) {
    await promisify(execFile)('pnpm', ['pack', '--pack-destination', tarballs], {
      cwd: join(packages, name),
    });
  }
  await writeFile(
    join(directory, 'package.json'),
    JSON.stringify({ name: 'canopy-cloud-e2e', private: true }),
  );
  const files = (await readdir(tarballs)).map((file) => join(tarballs, file));
  await promisify(execFile)(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--legacy-peer-deps', ...files],
    { cwd: directory },
  );
  return join(directory, 'node_modules', '.bin', 'canopy-cloud');
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Called with the stderr received so far, after each chunk (to react to the login code). */
  onStderr?: (stderr: string, child: { kill: (signal: NodeJS.Signals) => void }) => void;
}

/** Runs the installed `canopy-cloud <args>` and resolves when it exits. */
export function runCli(bin: string, args: string[], options: CliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(stderr, { kill: (signal) => child.kill(signal) });
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
