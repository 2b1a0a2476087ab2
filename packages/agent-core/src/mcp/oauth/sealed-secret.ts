import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'canopy-mcp-platform-credential';

function keyOf(authSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', authSecret, '', INFO, 32));
}

/**
 * Encrypts a platform credential (AES-256-GCM, key derived from the auth secret with HKDF) for
 * a token the MCP client holds: the client carries it back but cannot read or alter it, so the
 * platform's own bearer token never sits readable in the client's token payload.
 */
export function sealSecret(secret: string, authSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(authSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** Decrypts a {@link sealSecret} value; `null` when it was not sealed with this auth secret. */
export function unsealSecret(sealed: unknown, authSecret: string): string | null {
  if (typeof sealed !== 'string') return null;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(authSecret), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
