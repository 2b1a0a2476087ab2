// Builds canopy-cloud (and the workspace packages it requires at run time) with tsup, packs them,
// installs the tarballs with npm into a directory (what `npm install -D @canopy/cloud-cli` gives a
// user), and runs the installed node_modules/.bin/canopy-cloud as a child process, as npx does.
import { execFile, spawn } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const packages = join(__dirname, '..', '..');
const tsup = require.resolve('tsup/dist/cli-default.js');

/**
 * Builds the CommonJS output of agent-core, datasource-sql and cloud-cli into
 * `<directory>/staging/<name>/dist` (no declarations: the binary only needs JavaScript; nothing
 * is written inside the workspace), beside a package.json whose `workspace:` ranges are replaced
 * as `pnpm pack` would, and packs each with npm. Each package is built from its own directory so
 * that its dependencies stay external, as in the published packages.
 */
async function packPackages(directory: string): Promise<string[]> {
  const tarballs = join(directory, 'tarballs');
  await mkdir(tarballs, { recursive: true });
  for (const [name, entries] of [
    ['platform-protocol', ['src/index.ts']],
    ['embedded-postgres', ['src/index.ts']],
    // Named entries, shared chunks: `@canopy/agent-core/toolkit` hands out the main entry's classes.
    [
      'agent-core',
      ['--entry.index', 'src/index.ts', '--entry.toolkit', 'src/toolkit/index.ts', '--splitting'],
    ],
    ['datasource-sql', ['src/index.ts']],
    ['cloud-cli', ['src/index.ts', 'src/cli.ts']],
  ] as const) {
    const source = join(packages, name);
    const staged = join(directory, 'staging', name);
    const options = ['--no-config', '--format', 'cjs', '--target', 'node20', '--platform', 'node'];
    await run(
      process.execPath,
      [tsup, ...entries, ...options, '--out-dir', join(staged, 'dist'), '--silent'],
      source,
    );
    const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8'));
    for (const field of ['dependencies', 'peerDependencies']) {
      for (const [dependency, range] of Object.entries<string>(manifest[field] ?? {})) {
        if (range.startsWith('workspace:')) manifest[field][dependency] = `^${manifest.version}`;
      }
    }
    delete manifest.devDependencies;
    await writeFile(join(staged, 'package.json'), JSON.stringify(manifest, null, 2));
    await run('npm', ['pack', '--pack-destination', tarballs, '--loglevel=error'], staged);
  }
  return (await readdir(tarballs)).map((file) => join(tarballs, file));
}

/**
 * Packs the packages, then installs the tarballs into `directory` (which gets a package.json);
 * resolves to the installed `canopy-cloud` binary.
 */
export async function installFromTarballs(directory: string): Promise<string> {
  const files = await packPackages(directory);
  await writeFile(
    join(directory, 'package.json'),
    JSON.stringify({ name: 'canopy-cloud-e2e', private: true }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files], directory);
  return join(directory, 'node_modules', '.bin', 'canopy-cloud');
}

function run(command: string, args: string[], cwd: string) {
  return promisify(execFile)(command, args, { cwd });
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
