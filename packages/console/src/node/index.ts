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

/** A workspace of `console.config.json`: one environment the console can sign in to. */
export interface ConsoleWorkspace {
  project: string;
  environment: string;
  /** The environment's API endpoint (the agent's base URL, without `/forest`). */
  agentUrl: string;
  /** The teams users sign in to (a rendering id is a team id). */
  renderings: { id: number; name: string }[];
  /** The schema the agent wrote (schema file) or uploaded (JSON:API document). */
  schema?: unknown;
  /** Or where to fetch it. */
  schemaUrl?: string;
  /** A development environment allows everything. */
  development?: boolean;
  /** Rights per role name, as the management API stores them. */
  roles?: Record<string, { collections?: Record<string, Record<string, boolean>> }>;
}

/** The document the console reads at `console.config.json`. */
export interface ConsoleConfig {
  workspaces: ConsoleWorkspace[];
}

// The agent protocol client: plain TypeScript over `fetch`, usable in Node 20 and browsers.
export * from '../protocol';
