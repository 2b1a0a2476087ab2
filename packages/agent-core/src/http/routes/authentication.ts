import type { AuthenticationClient } from '../../platform/agent-services';
import { callerIdentity } from '../../toolkit/caller';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import { signSessionToken } from '../../protocol/auth/session-token';
import { bodyStep } from '../pipeline/entry';
import type { RouteTable } from '../pipeline/route-table';
import { sendJson } from '../pipeline/send-json';
import { type HttpRequest, type HttpResponse, requestBody } from '../request/node-http';

/** Size limit of the login body (`{"renderingId": n}`). */
const LOGIN_BODY_LIMIT = '16kb';

/**
 * Public login routes (agent-http-protocol §3.1–3.2): the authorization URL of the platform's
 * OpenID Connect provider, and the callback that exchanges the code and signs a session token.
 */
export function addAuthenticationRoutes(
  routes: RouteTable,
  authentication: AuthenticationClient,
  authSecret: string,
): void {
  // The only body read before authentication: `{"renderingId": n}`, hence a small limit.
  const readLoginBody = bodyStep(LOGIN_BODY_LIMIT);
  const login = async (request: HttpRequest, response: HttpResponse) => {
    if (await readLoginBody(request, response)) return;
    const raw: unknown = (requestBody(request) as { renderingId?: unknown } | undefined)
      ?.renderingId;
    const renderingId = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
    if (!Number.isFinite(renderingId)) throw new ValidationError('Rendering id must be a number');
    sendJson(response, {
      authorizationUrl: await authentication.getAuthorizationUrl(renderingId),
    });
  };
  const callback = async (request: HttpRequest, response: HttpResponse) => {
    const url = request.url ?? '';
    const params = new URLSearchParams(url.slice(url.indexOf('?') + 1));
    const state = params.get('state');
    if (params.get('error')) {
      sendJson(
        response,
        {
          error: params.get('error'),
          error_description: params.get('error_description') ?? undefined,
          state: state ?? undefined,
        },
        401,
      );
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
      sendJson(
        response,
        error.status === 401
          ? { error: error.error, error_description: error.description, state: error.state }
          : { error: 403, error_description: error.description },
        error.status,
      );
      return;
    }
    const token = signSessionToken(callerIdentity(user), authSecret);
    const [, payload = ''] = token.split('.');
    sendJson(response, {
      token,
      tokenData: JSON.parse(Buffer.from(payload, 'base64url').toString()),
    });
  };
  routes.add('POST', '/authentication', login, { public: true });
  routes.add('GET', '/authentication/callback', callback, { public: true });
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
