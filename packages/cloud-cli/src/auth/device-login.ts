import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../cli-error';
import { errorDetail, platformRequest, unexpectedAnswer } from '../platform/http';
import { CLI_CLIENT_ID, CLI_SCOPE } from './client-id';
import { discoverDeviceFlow } from './oidc-discovery';
import { toStoredToken } from './token-response';
import type { StoredToken } from './token-store';

/** What the user must do to approve the login (RFC 8628 §3.2). */
export interface DeviceCodePrompt {
  verificationUri: string;
  verificationUriComplete: string | null;
  userCode: string;
  expiresInSeconds: number;
}

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** How the device login shows its progress (see `Output`). */
export interface DeviceLoginHooks {
  /** Runs one network step under a progress indicator. */
  step<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Shows the verification URL and user code. */
  prompt(prompt: DeviceCodePrompt): void;
}

/**
 * Logs in with the OAuth 2.0 Device Authorization Grant (RFC 8628): asks the platform for a
 * device code, hands the verification URL and user code to `hooks.prompt`, then polls the token
 * endpoint no faster than the platform's `interval` (5 s more after each `slow_down`) until the
 * user approves, denies, or the code expires.
 */
export async function deviceLogin(
  serverUrl: string,
  hooks: DeviceLoginHooks,
): Promise<StoredToken> {
  const { endpoints, authorization } = await hooks.step('Starting the login', async () => {
    const found = await discoverDeviceFlow(serverUrl);
    const answer = await platformRequest(found.deviceAuthorizationEndpoint, {
      form: { client_id: CLI_CLIENT_ID, scope: CLI_SCOPE },
    });
    return { endpoints: found, authorization: answer };
  });
  if (authorization.status !== 200) throw unexpectedAnswer('start a device login', authorization);
  const body = (authorization.body ?? {}) as Record<string, unknown>;
  const { device_code: deviceCode, user_code: userCode, verification_uri: uri } = body;
  if (typeof deviceCode !== 'string' || typeof userCode !== 'string' || typeof uri !== 'string') {
    throw new CliError(
      'PLATFORM_ERROR',
      'The Canopy platform answered the device login without device_code, user_code and verification_uri; update the platform server.',
    );
  }
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 600;
  const interval = typeof body.interval === 'number' && body.interval >= 0 ? body.interval : 5;
  hooks.prompt({
    verificationUri: uri,
    verificationUriComplete:
      typeof body.verification_uri_complete === 'string' ? body.verification_uri_complete : null,
    userCode,
    expiresInSeconds: expiresIn,
  });

  return hooks.step('Waiting for you to confirm the code', () =>
    poll(endpoints.tokenEndpoint, deviceCode, interval, Date.now() + expiresIn * 1000),
  );
}

async function poll(
  tokenEndpoint: string,
  deviceCode: string,
  initialInterval: number,
  deadline: number,
): Promise<StoredToken> {
  let interval = initialInterval;
  for (;;) {
    await sleep(interval * 1000);
    if (Date.now() > deadline) break;
    const response = await platformRequest(tokenEndpoint, {
      form: { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: CLI_CLIENT_ID },
    });
    if (response.status === 200) return toStoredToken(response.body);
    const error = (response.body as Record<string, unknown> | null)?.error;
    if (error === 'authorization_pending') continue;
    if (error === 'slow_down') {
      interval += 5;
      continue;
    }
    if (error === 'access_denied') {
      throw new CliError(
        'LOGIN_FAILED',
        'The login was denied in the browser; run canopy-cloud login again and approve it.',
      );
    }
    if (error === 'expired_token') break;
    if (response.status >= 500 || !error) throw unexpectedAnswer('complete the login', response);
    throw new CliError(
      'LOGIN_FAILED',
      `The Canopy platform refused the login (${errorDetail(response.body)}); run canopy-cloud login again.`,
    );
  }
  throw new CliError(
    'LOGIN_FAILED',
    'The login code expired before it was approved; run canopy-cloud login again and approve it in time.',
  );
}

/**
 * Exchanges a refresh token for a new access token; `null` when the platform no longer accepts
 * the refresh token (revoked or expired), so the caller logs in again.
 */
export async function refreshToken(
  serverUrl: string,
  token: StoredToken & { refreshToken: string },
): Promise<StoredToken | null> {
  const endpoints = await discoverDeviceFlow(serverUrl);
  const response = await platformRequest(endpoints.tokenEndpoint, {
    form: {
      grant_type: 'refresh_token',
      refresh_token: token.refreshToken,
      client_id: CLI_CLIENT_ID,
    },
  });
  if (response.status === 200) {
    const renewed = toStoredToken(response.body);
    return { ...renewed, refreshToken: renewed.refreshToken ?? token.refreshToken };
  }
  if (response.status === 400 || response.status === 401) return null;
  throw unexpectedAnswer('refresh your login', response);
}
