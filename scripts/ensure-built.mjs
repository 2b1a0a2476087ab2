// Builds the workspace packages when a build output is missing or older than its sources, so the
// README's test command works on a fresh clone (some suites load a package's build: the console's
// files, the CLI binaries) and never tests a stale build. A checkout built after its last change
// (CI builds first) builds nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_ENTRIES = [
  'src',
  'public',
  'index.html',
  'package.json',
  'tsup.config.ts',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** The newest modification time under `path` (files only; tests are not build inputs). */
function newestSource(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestSource(join(path, entry)));
  return newest;
}

/** What a package's build writes that the tests or the demo read: its main file, the console's page. */
function outputsOf(dir, manifest) {
  const outputs = [manifest.main, ...Object.values(manifest.bin ?? {})].filter(Boolean);
  if (existsSync(join(dir, 'vite.config.ts'))) outputs.push('dist/app/index.html');
  return outputs.map((output) => join(dir, output));
}

/**
 * The packages under `packages/` whose build is missing or older than their sources (or the
 * shared build settings), each with the reason.
 */
export function staleBuilds(root) {
  const shared = Math.max(
    newestSource(join(root, 'tsconfig.base.json')),
    newestSource(join(root, 'tsup.config.base.ts')),
  );
  const stale = [];
  for (const name of readdirSync(join(root, 'packages'))) {
    const dir = join(root, 'packages', name);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (!manifest.scripts?.build) continue;
    const outputs = outputsOf(dir, manifest);
    const missing = outputs.find((output) => !existsSync(output));
    if (missing) {
      stale.push({ name: manifest.name, reason: 'not built' });
      continue;
    }
    const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
    const sources = Math.max(
      shared,
      ...SOURCE_ENTRIES.map((entry) => newestSource(join(dir, entry))),
    );
    if (sources > built) stale.push({ name: manifest.name, reason: 'older than its sources' });
  }
  return stale;
}

/** Runs `pnpm build` (the pnpm that runs this script, else the one on PATH) when anything is stale. */
export function ensureBuilt(root) {
  const stale = staleBuilds(root);
  if (stale.length === 0) return true;
  console.log(
    `Building the workspace first (${stale.map(({ name, reason }) => `${name}: ${reason}`).join('; ')}); ` +
      'about a minute on a fresh clone.',
  );
  const pnpm = process.env.npm_execpath;
  const build =
    pnpm && /pnpm/.test(pnpm)
      ? spawnSync(process.execPath, [pnpm, 'build'], { cwd: root, stdio: 'inherit' })
      : spawnSync('pnpm', ['build'], {
          cwd: root,
          stdio: 'inherit',
          shell: process.platform === 'win32',
        });
  return build.status === 0;
}
