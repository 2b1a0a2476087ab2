import type { Request, RequestHandler } from 'express';
import { configuredPublicOrigin, type ServerContext } from '../context';

/**
 * The configured public origin, when the request names its host (`Host`, or `X-Forwarded-Host`
 * from a trusted proxy); else why the request is refused. The host is compared after URL
 * normalization (case, default port).
 */
export function publicOriginFor(
  ctx: ServerContext,
  req: Request,
): { origin: string } | { status: number; description: string } {
  const origin = configuredPublicOrigin(ctx);
  if (origin === undefined) {
    return {
      status: 503,
      description:
        'This server does not know its public URL yet: set CANOPY_PUBLIC_URL (or call listen()).',
    };
  }
  const expected = new URL(origin);
  const named = req.host ?? '';
  let host: string | undefined;
  try {
    host = new URL(`${expected.protocol}//${named}`).host;
  } catch {
    host = undefined;
  }
  if (host !== expected.host) {
    return {
      status: 421,
      description: `This server answers logins at ${origin} (CANOPY_PUBLIC_URL) only, not at the host named by this request.`,
    };
  }
  return { origin };
}

/**
 * Refuses, before anything else runs, a request whose host is not the public origin's: logins
 * (the OIDC issuer, its redirect URIs, its cookies) exist on the public URL only, so made-up
 * `Host` headers neither change the issuer nor create state. The answer is an OAuth error body
 * (`misdirected_request`, status 421; 503 while no public origin is known).
 */
export function requirePublicHost(ctx: ServerContext): RequestHandler {
  return (req, res, next) => {
    const found = publicOriginFor(ctx, req);
    if ('origin' in found) {
      next();
      return;
    }
    res.status(found.status).json({
      error: found.status === 421 ? 'misdirected_request' : 'temporarily_unavailable',
      error_description: found.description,
    });
  };
}
