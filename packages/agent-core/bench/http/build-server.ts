// Bundles a benchmark server with esbuild before it is started, so that it runs as plain
// JavaScript under node: a TypeScript loader in the measured process (tsx) costs memory and CPU that
// the agent does not cost in production. Workspace packages (`@canopy/*`, resolved to their
// sources through the tsconfig paths) are bundled; every other package stays an external require,
// found through NODE_PATH in the workspace packages' node_modules.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
  return outfile;
}
