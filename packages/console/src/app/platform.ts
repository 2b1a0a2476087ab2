/**
 * The console's own login to the platform and what it reads there. The console is a public OIDC
 * client of the platform (`canopy-console`: authorization code with PKCE, in a pop-up whose
 * callback page is on the console's origin). Its access token reads `/v1/me/workspaces` (the
 * projects, environments, agent API endpoints and teams of the user) and
 * `/v1/me/projects/:p/environments/:e` (role rights and the schema the agent uploaded).
 *
 * Tokens live in memory and in `sessionStorage` (this tab only, gone when it closes; a reload
 * keeps the session): never in `localStorage`, which every tab and every later visit can read.
 */
import type {
  MeEnvironment,
  MeEnvironmentDetail,
  MeTeam,
  MeWorkspaces,
} from '@canopy/platform-protocol';
import { PlatformClient, PlatformError } from '../protocol';

const PLATFORM_KEY = 'canopy.console.platform';
export const CONSOLE_CLIENT_ID = 'canopy-console';
const CALLBACK_PATH = '/oidc/callback';

export { PlatformError };

export interface PlatformToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

let platformToken: PlatformToken | undefined;

/** Reads a value of this tab's session storage (`undefined` when absent, unreadable or blocked). */
export function readTabStorage<T>(key: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function writeTabStorage(key: string, value: unknown): void {
  try {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage disabled: the session stays in memory only.
  }
}

/** The platform token of this tab, if still valid for at least `marginMs`. */
export function currentPlatformToken(marginMs = 0): PlatformToken | undefined {
  platformToken ??= readTabStorage<PlatformToken>(PLATFORM_KEY);
  return platformToken && platformToken.expiresAt - marginMs > Date.now()
    ? platformToken
    : undefined;
}

export function storePlatformToken(token: PlatformToken | undefined): void {
  platformToken = token;
  writeTabStorage(PLATFORM_KEY, token);
}

let unauthorized: (() => Promise<boolean>) | undefined;

/**
 * What a missing or refused platform session does while a workspace is open: the session's
 * sign-in dialog (session.tsx), after which the call is sent once more. Returns the unsubscribe.
 */
export function onPlatformUnauthorized(handler: () => Promise<boolean>): () => void {
  unauthorized = handler;
  return () => {
    if (unauthorized === handler) unauthorized = undefined;
  };
}

/** The Console's one platform client (protocol/platform-client.ts), with this tab's token. */
export const platform = new PlatformClient({
  token: {
    get: () => currentPlatformToken()?.accessToken,
    drop: () => storePlatformToken(undefined),
  },
  onUnauthorized: () => unauthorized?.() ?? Promise.resolve(false),
});

/** Opens the sign-in pop-up (synchronously, inside the click, so the browser allows it). */
export function openSignInWindow(): Window {
  const popup = window.open('', 'canopy-sign-in', 'popup,width=480,height=640');
  if (!popup) {
    throw new Error(
      'The browser blocked the sign-in window: allow pop-ups for this site and retry.',
    );
  }
  return popup;
}

/**
 * Waits until the pop-up lands on the callback page of this origin with an authorization
 * response (`code` or `error`, and `state`), other than the one it shows when called.
 */
export function waitForCallback(popup: Window): Promise<Record<string, string>> {
  // A pop-up reused after an earlier sign-in still shows that callback until the navigation just
  // asked for commits: that answer is not this one.
  let stale: string | undefined;
  try {
    stale = popup.location.href;
  } catch {
    stale = undefined;
  }
  return new Promise((resolve, reject) => {
    const timer = window.setInterval(() => {
      if (popup.closed) {
        window.clearInterval(timer);
        reject(new Error('The sign-in window was closed before you signed in.'));
        return;
      }
      let href: string;
      try {
        href = popup.location.href;
      } catch {
        return; // Still on another origin.
      }
      if (href === stale) return;
      const url = new URL(href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname !== CALLBACK_PATH) return;
      const params = url.searchParams;
      if ((params.has('code') || params.has('error')) && params.has('state')) {
        window.clearInterval(timer);
        resolve(Object.fromEntries(params));
      }
    }, 100);
  });
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/** The platform's origin: admin-api-server serves the console, so it is this page's. */
const platformUrl = (path: string) => new URL(path, window.location.origin).toString();

/**
 * Signs in to the platform in `popup` (authorization code + PKCE S256) and keeps the token.
 * Unless `askPassword`, a browser signed in to the platform already passes without a form.
 */
export async function platformSignIn(
  popup: Window,
  options: { askPassword?: boolean } = {},
): Promise<PlatformToken> {
  const verifier = randomString();
  const state = randomString();
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  const redirectUri = platformUrl(CALLBACK_PATH);
  const authorize = new URL(platformUrl('/oidc/auth'));
  authorize.search = new URLSearchParams({
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    // Signing in from the login page always asks for the password (another person may be at
    // this browser); renewing an expired session in a signed-in tab does not.
    ...(options.askPassword ? { prompt: 'login' } : {}),
  }).toString();
  popup.location.href = authorize.toString();
  const callback = await waitForCallback(popup);
  if (callback.state !== state) throw new Error('The sign-in answered for another request.');
  if (callback.error) {
    throw new Error(
      `The platform refused the sign-in: ${callback.error_description ?? callback.error}`,
    );
  }
  const response = await fetch(platformUrl('/oidc/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: CONSOLE_CLIENT_ID,
      code: callback.code ?? '',
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    error_description?: string;
  };
  if (!response.ok || !body.access_token) {
    throw new Error(
      `The platform did not issue a token: ${body.error_description ?? response.statusText}`,
    );
  }
  const token = {
    accessToken: body.access_token,
    expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000,
  };
  storePlatformToken(token);
  return token;
}

// The platform's answers (see the OpenAPI document, tag `me`) ------------------------------------

export type { MeEnvironment, MeEnvironmentDetail, MeTeam, MeWorkspaces };

/**
 * Signs the user out of the agents: every agent of the user's projects refuses the agent session
 * tokens issued until now. The platform token is read at once, so the caller may drop it right
 * after; the request itself is best effort (`keepalive`: it outlives a page being left).
 */
export function revokeAgentSessions(): Promise<void> {
  if (!currentPlatformToken()) return Promise.resolve();
  return platform
    .send('/v1/me/agent-sessions/revoke', {
      method: 'POST',
      keepalive: true,
      renewSession: false,
    })
    .then(
      () => undefined,
      () => undefined,
    );
}

export async function fetchWorkspaces(): Promise<MeWorkspaces> {
  return platform.json<MeWorkspaces>('/v1/me/workspaces', { cache: 'no-store' });
}

const known = new Map<string, MeEnvironmentDetail>();

/**
 * One environment as the user works in it. Polled: the request carries the ETag of the answer
 * held, and an unchanged answer (304, no body) gives back that same object.
 */
export async function fetchEnvironment(
  project: string,
  environment: string,
): Promise<MeEnvironmentDetail> {
  const path = `/v1/me/projects/${encodeURIComponent(project)}/environments/${encodeURIComponent(environment)}`;
  const held = known.get(path);
  const response = await platform.send(path, {
    cache: 'no-store',
    headers: held ? { 'if-none-match': `"${held.rightsVersion}"` } : {},
  });
  if (response.status === 304 && held) return held;
  const detail = (await response.json()) as MeEnvironmentDetail;
  known.set(path, detail);
  return detail;
}

/**
 * Changes the signed-in user's password (`PUT /v1/account/password`, with the console's token):
 * the platform checks the current one, under its limit of failed sign-ins. Throws the platform's
 * message on refusal (wrong current password, too short, too many failures).
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await platform.send('/v1/account/password', {
    method: 'PUT',
    json: { currentPassword, newPassword },
    // A 401 here is a wrong current password, not an expired session.
    renewSession: false,
  });
}
