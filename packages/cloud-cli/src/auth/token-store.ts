import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../cli-error';
import { configDir } from './config-dir';

/** The tokens of one platform, as the device flow or a refresh returned them. */
export interface StoredToken {
  accessToken: string;
  /** Absent when the platform issued no refresh token. */
  refreshToken?: string;
  /** Epoch milliseconds after which the access token is no longer accepted; absent: unknown. */
  expiresAt?: number;
}

interface CredentialsFile {
  servers: Record<string, StoredToken>;
}

/** The file holding the tokens, one entry per platform URL, readable by its owner only. */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'credentials.json');
}

async function readCredentials(path: string): Promise<CredentialsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: {} };
    throw diskError(path, error);
  }
  try {
    const parsed = JSON.parse(text) as Partial<CredentialsFile>;
    return { servers: typeof parsed.servers === 'object' && parsed.servers ? parsed.servers : {} };
  } catch {
    // A damaged file only costs a new login; it is replaced on the next save.
    return { servers: {} };
  }
}

/** The token stored for `serverUrl`, or `null`. */
export async function loadToken(
  serverUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StoredToken | null> {
  const credentials = await readCredentials(credentialsPath(env));
  const token = credentials.servers[serverUrl];
  return token && typeof token.accessToken === 'string' ? token : null;
}

/**
 * Stores the token of `serverUrl` (or removes it when `token` is `null`). The file is written
 * beside its final place and renamed, with mode 0600 in a 0700 directory.
 */
export async function saveToken(
  serverUrl: string,
  token: StoredToken | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const path = credentialsPath(env);
  const credentials = await readCredentials(path);
  if (token) credentials.servers[serverUrl] = token;
  else delete credentials.servers[serverUrl];
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(configDir(env), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    throw diskError(path, error);
  }
}

function diskError(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code ?? 'an I/O error';
  return new CliError(
    'DISK_ERROR',
    `Cannot access the credentials file ${path} (${code}); check its permissions or set CANOPY_CONFIG_DIR to a writable directory.`,
    { cause: error },
  );
}
