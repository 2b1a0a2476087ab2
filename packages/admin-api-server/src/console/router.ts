import { join } from 'node:path';
import { consoleAssetsDir } from '@canopy/console';
import express, { type Router } from 'express';

/**
 * Whether the console is served. What it lists comes from the platform itself (`/v1/me`: the
 * user's projects, environments with their API endpoint, teams, rights and uploaded schemas).
 */
export interface ConsoleOptions {
  /** `false` serves no console (`CANOPY_CONSOLE=off`). */
  readonly enabled: boolean;
}

/** Paths of the platform's own APIs: the console never answers under them. */
const RESERVED = /^\/(v1|oidc|oauth|liana|forest|api|health|\.well-known)(\/|$)/;

/**
 * The console's Content-Security-Policy: its own scripts only, but `fetch` to any agent
 * (each environment's API endpoint is on its own origin), data: and blob: images and downloads.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' http: https:",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * Serves `@canopy/console` at `/`: its static files (hashed assets cached for a year) and
 * `index.html` for any other GET that asks for HTML, so deep links work. Unknown paths under the platform's API prefixes still get their JSON 404.
 */
export function consoleRouter(options: ConsoleOptions, assetsDir = consoleAssetsDir): Router {
  const router = express.Router();
  if (!options.enabled) return router;

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) {
      next();
      return;
    }
    res.setHeader('Content-Security-Policy', CSP);
    next();
  });

  router.use(
    '/assets',
    express.static(join(assetsDir, 'assets'), { immutable: true, maxAge: '365d', index: false }),
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
    res.sendFile('index.html', { root: assetsDir }, (error) => {
      if (error) next(error);
    });
  });
  return router;
}
