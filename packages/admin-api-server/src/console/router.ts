import { join } from 'node:path';
import { consoleAssetsDir } from '@canopy/console';
import express, { type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { ConsoleOptions } from '../config';

export type { ConsoleOptions };

/** Paths of the platform's own APIs: the console never answers under them. */
const RESERVED = /^\/(v1|oidc|oauth|liana|forest|api|health|\.well-known)(\/|$)/;

/**
 * The console's Content-Security-Policy: its own scripts only, data: and blob: images and
 * downloads, and `fetch` to the platform itself and to the agents (each environment's API
 * endpoint is on its own origin). The page is served before anyone signs in, so it cannot name
 * the agents of the user's own workspaces: it names the agents of every environment this
 * platform holds (`agentOrigins`, read from the database and cached briefly), never any host —
 * a script injected into the console can then send data nowhere else.
 */
export function consoleCsp(
  agentOrigins: readonly string[],
  connectOrigins: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...new Set([...agentOrigins, ...connectOrigins])].join(' '),
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * What a browser gets at `/` (and the console's deep links) when the console's files are missing:
 * a server run from a repository checkout where `packages/console` was never built.
 */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Canopy Console is not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The Canopy Console is not built</h1>
<p>This platform server serves the Console at <code>/</code>, but its files are missing: the
server runs from a checkout of the Canopy repository where <code>packages/console</code> has not
been built yet.</p>
<p>Build it at the root of the repository, then reload this page:</p>
<pre>pnpm --filter @canopy/console build</pre>
<p>(<code>pnpm build</code> builds every package; <code>pnpm demo</code> builds the Console
itself when it is missing or older than its sources.) Set <code>CANOPY_CONSOLE=off</code> to serve
no Console. The API under <code>/v1</code> works either way.</p>
</body>
</html>
`;

/**
 * Serves `@canopy/console` at `/`: its static files (hashed assets cached for a year, sent
 * precompressed) and
 * `index.html` for any other GET that asks for HTML, so deep links work (a page saying how to
 * build the console, 503, when it has not been built). Unknown paths under the platform's API
 * prefixes still get their JSON 404.
 */
export function consoleRouter(options: ConsoleOptions, assetsDir = consoleAssetsDir): Router {
  const router = express.Router();
  if (!options.enabled) return router;

  router.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) {
      next();
      return;
    }
    res.setHeader(
      'Content-Security-Policy',
      consoleCsp((await options.agentOrigins?.()) ?? [], options.connectOrigins),
    );
    next();
  });

  // The service worker of streamed CSV downloads (packages/console/public): revalidated on every
  // load so a new console version replaces it.
  router.get('/csv-download-sw.js', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile('csv-download-sw.js', { root: assetsDir }, (error) => {
      if (error) next();
    });
  });
  // Download links are answered by that worker in the tab that made them; one that reaches the
  // server (opened elsewhere, or after the worker was removed) gets this instead of the app.
  router.get('/__canopy/download/*splat', (_req, res) => {
    res
      .status(410)
      .type('text/plain')
      .send('This download link works only in the console tab that made it: export again.');
  });

  // Hashed files, cached for a year; the console's build writes a brotli (`.br`) and a gzip
  // (`.gz`) copy beside each script and style sheet, sent with `Content-Encoding` (and `Vary:
  // Accept-Encoding`) to a browser that accepts it. The copies are found when the server starts.
  router.use(
    '/assets',
    expressStaticGzip(join(assetsDir, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '365d', index: false },
    }),
  );

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) {
      next();
      return;
    }
    // Only a browser navigation (which asks for text/html by name) gets the console's page: an API
    // client that sends no Accept header keeps the JSON 404 of an unknown route.
    if (!req.get('accept')?.includes('text/html') || req.path.startsWith('/assets/')) {
      next();
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    // Relative to `root`: an installed console sits under node_modules/.pnpm, and `send` refuses a
    // path with a dot-directory outside its root.
    res.sendFile('index.html', { root: assetsDir }, (error?: NodeJS.ErrnoException) => {
      if (error?.code === 'ENOENT' && !res.headersSent) {
        res.status(503).type('html').send(NOT_BUILT_PAGE);
      } else if (error) next(error);
    });
  });
  return router;
}
