// Bundles a benchmark server with esbuild before it is started, so that it runs as plain
// JavaScript under node: a TypeScript loader in the measured process (tsx) costs memory and CPU that
// the agent does not cost in production. Workspace packages (`@canopy/*`, resolved to their
// sources through the tsconfig paths) are bundled; every other package stays an external require,
// found through NODE_PATH in the workspace packages' node_modules.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

import { build } from 'esbuild';

const WORKSPACE = resolve(__dirname, '../../../..');
const outdir = mkdtempSync(join(tmpdir(), 'canopy-http-bench-build-'));
process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));

/** node_modules folders of every workspace package, for the bundle's external requires. */
export function workspaceNodePath(): string {
  return ['packages', 'internal']
    .flatMap((group) =>
      readdirSync(join(WORKSPACE, group)).map((name) =>
        join(WORKSPACE, group, name, 'node_modules'),
      ),
    )
    .concat(join(WORKSPACE, 'node_modules'))
    .join(':');
}

/** Bundles `file` (beside this script) into a CommonJS file and returns its path. */
export async function buildServer(file: string): Promise<string> {
  const outfile = join(outdir, basename(file).replace(/\.ts$/, '.cjs'));
  await build({
    entryPoints: [join(__dirname, file)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    tsconfig: join(__dirname, '../../tsconfig.json'),
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(context) {
          context.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@canopy/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  // One-byte source text in V8's heap, as the published bundles are (the workspace's
  // tsup.config.base.ts): characters above U+00FF as escapes.
  const code = readFileSync(outfile, 'utf8');
  writeFileSync(
    outfile,
    code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  return outfile;
}

/**
 * Starts agent-server.ts (bundled) with node flags `execArgv` against the platform sandbox at
 * `sandboxUrl`, on the database at PG_URL; `env` adds to its environment.
 */
export async function forkAgentServer(
  sandboxUrl: string,
  execArgv: string[],
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  return fork(await buildServer('agent-server.ts'), [], {
    execArgv,
    env: {
      ...process.env,
      PG_URL: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      NODE_PATH: workspaceNodePath(),
      SANDBOX_URL: sandboxUrl,
      SANDBOX_ENV_SECRET: 'be'.repeat(32),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
