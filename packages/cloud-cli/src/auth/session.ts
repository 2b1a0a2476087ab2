import { CliError } from '../cli-error';
import type { Output } from '../output';
import { deviceLogin, refreshToken, type DeviceCodePrompt } from './device-login';
import { loadToken, saveToken, type StoredToken } from './token-store';

/** An access token for platform calls, and where it came from. */
export interface Session {
  accessToken: string;
  source: 'CANOPY_TOKEN' | 'stored' | 'login';
}

/** Tokens this close to their expiry are refreshed first. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Runs the device login, stores the token, and tells the user what to approve (on stderr, so
 * `--json` output stays parseable).
 */
export async function login(serverUrl: string, output: Output): Promise<StoredToken> {
  const token = await deviceLogin(serverUrl, {
    step: (label, work) => output.step(label, work),
    prompt: (prompt) => output.notice(describePrompt(prompt)),
  });
  await output.step('Saving your login', () => saveToken(serverUrl, token));
  return token;
}

/**
 * The access token to use: `CANOPY_TOKEN` first (CI), else the stored token (refreshed when it
 * has expired), else a new device login when `canLogin`.
 *
 * @throws CliError `NOT_AUTHENTICATED` when there is no usable token and no login may run.
 */
export async function getSession(
  serverUrl: string,
  output: Output,
  canLogin: boolean,
): Promise<Session> {
  const fromEnv = process.env.CANOPY_TOKEN;
  if (fromEnv) return { accessToken: fromEnv, source: 'CANOPY_TOKEN' };

  const stored = await loadToken(serverUrl);
  if (stored && !isExpired(stored)) return { accessToken: stored.accessToken, source: 'stored' };
  if (stored?.refreshToken) {
    const refresh = stored.refreshToken;
    const renewed = await output.step('Refreshing your login', () =>
      refreshToken(serverUrl, { ...stored, refreshToken: refresh }),
    );
    if (renewed) {
      await saveToken(serverUrl, renewed);
      return { accessToken: renewed.accessToken, source: 'stored' };
    }
    await saveToken(serverUrl, null);
  }
  if (!canLogin) {
    throw new CliError(
      'NOT_AUTHENTICATED',
      `You are not logged in to ${serverUrl} (or your login expired); run canopy-cloud login, or set CANOPY_TOKEN in CI.`,
    );
  }
  const token = await login(serverUrl, output);
  return { accessToken: token.accessToken, source: 'login' };
}

/**
 * The error for a token the platform refused (401): a stored token is forgotten so the next run
 * logs in again.
 */
export async function refusedSession(serverUrl: string, session: Session): Promise<CliError> {
  if (session.source === 'CANOPY_TOKEN') {
    return new CliError(
      'NOT_AUTHENTICATED',
      'The Canopy platform refused the token in CANOPY_TOKEN (revoked or expired); set a valid token.',
    );
  }
  await saveToken(serverUrl, null);
  return new CliError(
    'NOT_AUTHENTICATED',
    'The Canopy platform refused your login (revoked or expired); run canopy-cloud login and try again.',
  );
}

function isExpired(token: StoredToken): boolean {
  return token.expiresAt !== undefined && token.expiresAt - EXPIRY_MARGIN_MS <= Date.now();
}

function describePrompt(prompt: DeviceCodePrompt): string {
  const minutes = Math.max(1, Math.round(prompt.expiresInSeconds / 60));
  return [
    `To log in, open ${prompt.verificationUriComplete ?? prompt.verificationUri}`,
    `and confirm the code ${prompt.userCode} (valid ${minutes} minute${minutes === 1 ? '' : 's'}).`,
  ].join('\n');
}
