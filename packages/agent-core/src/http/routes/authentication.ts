import { type Router } from 'express';

import type { AuthenticationClient } from '../../platform/agent-services';
import { callerIdentity } from '../../toolkit/caller';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import { signSessionToken } from '../../protocol/auth/session-token';
import { bodyMiddleware } from '../pipeline/entry';

/** Size limit of the login body (`{"renderingId": n}`). */
const LOGIN_BODY_LIMIT = '16kb';

/**
 * Public login routes (agent-http-protocol §3.1–3.2): the authorization URL of the platform's
 * OpenID Connect provider, and the callback that exchanges the code and signs a session token.
 */
export function mountAuthenticationRoutes(
  router: Router,
  authentication: AuthenticationClient,
  authSecret: string,
): void {
  // The only body read before authentication: `{"renderingId": n}`, hence a small limit.
  router.post('/authentication', bodyMiddleware(LOGIN_BODY_LIMIT), async (request, response) => {
    const raw: unknown = (request.body as { renderingId?: unknown } | undefined)?.renderingId;
    const renderingId = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
    if (!Number.isFinite(renderingId)) throw new ValidationError('Rendering id must be a number');
    response.json({ authorizationUrl: await authentication.getAuthorizationUrl(renderingId) });
  });

  router.get('/authentication/callback', async (request, response) => {
    const params = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
    const state = params.get('state');
    if (params.get('error')) {
      response.status(401).json({
        error: params.get('error'),
        error_description: params.get('error_description') ?? undefined,
        state: state ?? undefined,
      });
      return;
    }
    if (state === null)
      throw new ValidationError('Missing state: the callback needs the query parameter "state"');
    if (readRenderingId(state) === null) {
      throw new ValidationError('Failed to retrieve renderingId from query[state]');
    }
    let user: Awaited<ReturnType<AuthenticationClient['handleCallback']>>;
    try {
      user = await authentication.handleCallback(params.get('code') ?? '', state);
    } catch (error) {
      if (!isAuthenticationError(error)) throw error;
      response
        .status(error.status)
        .json(
          error.status === 401
            ? { error: error.error, error_description: error.description, state: error.state }
            : { error: 403, error_description: error.description },
        );
      return;
    }
    const token = signSessionToken(callerIdentity(user), authSecret);
    const [, payload = ''] = token.split('.');
    response.json({ token, tokenData: JSON.parse(Buffer.from(payload, 'base64url').toString()) });
  });
}

/** The platform client's login failure (platform/authentication-error.ts), checked by name. */
function isAuthenticationError(
  error: unknown,
): error is { status: 401 | 403; error: string | 403; description: string; state?: string } {
  const candidate = error as { name?: unknown; status?: unknown } | null;
  return (
    candidate?.name === 'AuthenticationError' &&
    (candidate.status === 401 || candidate.status === 403)
  );
}

function readRenderingId(state: string): number | null {
  try {
    const parsed: unknown = JSON.parse(state);
    const raw = (parsed as { renderingId?: unknown } | null)?.renderingId;
    const value = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}
