// Builds canopy-cloud (and the workspace packages it requires at run time) with tsup, then runs
// dist/cli.js as a child process the way `npx canopy-cloud` does.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const packages = join(__dirname, '..', '..');
const tsup = require.resolve('tsup/dist/cli-default.js');

/** The built binary. */
export const CLI_PATH = join(__dirname, '..', 'dist', 'cli.js');

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

/** Runs `canopy-cloud <args>` and resolves when it exits. */
export function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
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
