import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// The demo runs from its sources (tsx, CommonJS): this file is apps/demo/src/.
const root = join(__dirname, '..', '..', '..');
const consoleDir = join(root, 'packages', 'console');

/** What the console's Vite build reads: when one of these is newer than the build, it is stale. */
export const CONSOLE_BUILD_INPUTS: readonly string[] = [
  'packages/console/index.html',
  'packages/console/package.json',
  'packages/console/postcss.config.cjs',
  'packages/console/vite.config.ts',
  'packages/console/public',
  'packages/console/src/app',
  'packages/console/src/protocol',
  'packages/platform-protocol/src',
  'tsconfig.base.json',
].map((path) => join(root, path));

/** The page the platform serves at `/`: written last by the build, so its time is the build's. */
export const CONSOLE_BUILD_OUTPUT = join(consoleDir, 'dist', 'app', 'index.html');

/** The newest file under `paths` (files or directories; tests left out), or undefined. */
function newestFile(paths: readonly string[]): { path: string; mtimeMs: number } | undefined {
  let newest: { path: string; mtimeMs: number } | undefined;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (!/\.test\.tsx?$/.test(path) && (!newest || stats.mtimeMs > newest.mtimeMs)) {
      newest = { path, mtimeMs: stats.mtimeMs };
    }
  };
  paths.forEach(visit);
  return newest;
}

/**
 * Why the build at `output` must be redone: `missing`, `stale` (with the newest input file that
 * changed after it), or undefined when it is up to date. A `git clone` or `git pull` gives the
 * files it writes the current time, so they count as changed.
 */
export function consoleBuildState(
  inputs: readonly string[] = CONSOLE_BUILD_INPUTS,
  output: string = CONSOLE_BUILD_OUTPUT,
): { reason: 'missing' } | { reason: 'stale'; changed: string } | undefined {
  if (!existsSync(output)) return { reason: 'missing' };
  const newest = newestFile(inputs);
  if (newest && newest.mtimeMs > statSync(output).mtimeMs)
    return { reason: 'stale', changed: newest.path };
  return undefined;
}

/**
 * Builds the console (`vite build` in packages/console) when its build is missing or older than
 * its sources, so that the platform of the demo serves the current console at `/`. Says what it
 * does before the build starts (it takes a few seconds to a minute); prints Vite's output only if
 * it fails. Returns one line saying what was done.
 */
export async function buildConsoleIfNeeded(print = console.log): Promise<string> {
  const where = relative(root, dirname(CONSOLE_BUILD_OUTPUT));
  const state = consoleBuildState();
  if (!state) return `${where} is up to date with its sources: nothing to build`;
  print(
    state.reason === 'missing'
      ? `    ${where} is not built yet (a fresh clone): building it with Vite, usually 10 to 40 s…`
      : `    ${relative(root, state.changed)} changed since the last build: rebuilding ${where} with Vite…`,
  );
  const started = performance.now();
  const vite = join(consoleDir, 'node_modules', 'vite', 'bin', 'vite.js');
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: consoleDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0)
    throw new Error(
      `building the console failed (vite build in packages/console exited with ${code}):\n${output.join('')}`,
    );
  return `built ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}
