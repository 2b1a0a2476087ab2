/**
 * For servers that host the console: where its built static files are. Serve this directory
 * with a fallback to its `index.html` for the console's own routes.
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory holding `index.html` and `assets/` of the built console. */
export const consoleAssetsDir: string = assetsDirFrom(dirname(fileURLToPath(import.meta.url)));

/** `dist/app` from the built entry (`dist/`), and from the sources (`src/node/`, under tsx). */
function assetsDirFrom(here: string): string {
  return basename(here) === 'node' ? join(here, '..', '..', 'dist', 'app') : join(here, 'app');
}

// The agent protocol client: plain TypeScript over `fetch`, usable in Node 20 and browsers.
export * from '../protocol';
