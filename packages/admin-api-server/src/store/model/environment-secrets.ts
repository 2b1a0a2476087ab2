import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { registeredChainKeys, type ChainKey } from '../../integrity/chain-keys';

/** An environment found by its env secret, with its project. */
export interface AuthenticatedEnvironment {
  id: number;
  projectId: number;
  name: string;
  type: 'development' | 'production';
}

/** SHA-256 of an env secret: the only form the database holds. */
export function hashEnvironmentSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Generates a new env secret (64 lowercase hex characters) for an environment and stores its
 * hash; the previous secret stops working. The secret is returned once and never stored.
 */
export async function issueEnvironmentSecret(
  knex: Knex | Knex.Transaction,
  environmentId: number,
): Promise<string> {
  const secret = randomBytes(32).toString('hex');
  await knex('environments')
    .where({ id: environmentId })
    .update({
      secret_hash: hashEnvironmentSecret(secret),
      secret_sealed: sealSecret(knex, secret),
    });
  return secret;
}

const SEAL_LABEL = 'canopy env-secret seal';
const sealKey = (key: ChainKey) =>
  Buffer.from(hkdfSync('sha256', key.secret, Buffer.alloc(0), SEAL_LABEL, 32));

function chainKeysOrNone(knex: Knex | Knex.Transaction): readonly ChainKey[] {
  try {
    return registeredChainKeys(knex);
  } catch {
    return [];
  }
}

/**
 * Seals an env secret (AES-256-GCM under a key derived from the newest chain key registered for
 * this database): `<key id>.<iv>.<tag>.<ciphertext>`, base64url parts. The platform needs the
 * secret itself to sign approved action requests (platform protocol §9). `null` when no key is
 * registered (then only the hash is kept).
 */
function sealSecret(knex: Knex | Knex.Transaction, secret: string): string | null {
  const [key] = chainKeysOrNone(knex);
  if (!key) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(key), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [key.id, iv, cipher.getAuthTag(), sealed]
    .map((part) =>
      typeof part === 'string'
        ? Buffer.from(part).toString('base64url')
        : part.toString('base64url'),
    )
    .join('.');
}

/**
 * The env secret of an environment, unsealed, or `undefined` when the platform only holds its
 * hash (issued before secrets were sealed, or without a registered key) or cannot unseal it.
 */
export async function environmentSecretOf(
  knex: Knex,
  environmentId: number,
): Promise<string | undefined> {
  const row = await knex('environments').where({ id: environmentId }).first('secret_sealed');
  const parts = typeof row?.secret_sealed === 'string' ? row.secret_sealed.split('.') : [];
  if (parts.length !== 4) return undefined;
  const [keyId, iv, tag, sealed] = parts.map((part: string) => Buffer.from(part, 'base64url'));
  const key = chainKeysOrNone(knex).find((candidate) => candidate.id === keyId!.toString());
  if (!key) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(key), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(sealed!), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The environment whose env secret this is, if any. */
export async function findEnvironmentBySecret(
  knex: Knex,
  secret: string,
): Promise<AuthenticatedEnvironment | undefined> {
  const row = await knex('environments')
    .where({ secret_hash: hashEnvironmentSecret(secret) })
    .first('id', 'project_id', 'name', 'type');
  return row && { id: row.id, projectId: row.project_id, name: row.name, type: row.type };
}
