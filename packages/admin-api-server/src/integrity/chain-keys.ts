import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import type { SigningKey } from '../config';

/**
 * A key of the activity-log chain: links are HMAC-SHA-256 under `secret`, and record `id`.
 * Checkpoints of the chain head are signed with the Ed25519 key derived from the same secret.
 */
export interface ChainKey {
  readonly id: string;
  readonly secret: Buffer;
  readonly checkpointKey: KeyObject;
  readonly checkpointPublicKey: KeyObject;
}

// PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410).
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const derive = (secret: string | Buffer, label: string) =>
  Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), label, 32));

function chainKey(id: string, secret: Buffer): ChainKey {
  const checkpointKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, derive(secret, 'canopy activity-log checkpoints')]),
    format: 'der',
    type: 'pkcs8',
  });
  return { id, secret, checkpointKey, checkpointPublicKey: createPublicKey(checkpointKey) };
}

/**
 * The chain keys of a configuration, newest first (the first one signs new links; every one
 * verifies): `CANOPY_AUDIT_CHAIN_KEYS` when set, else keys derived (HKDF) from the token signing
 * keys, with the same ids prefixed by `tok-`. Like the signing keys, a retired key stays listed
 * (after the new one) for as long as the links it signed must verify.
 */
export function chainKeysOf(config: {
  auditChainKeys?: readonly SigningKey[];
  signingKeys: readonly SigningKey[];
}): ChainKey[] {
  if (config.auditChainKeys && config.auditChainKeys.length > 0) {
    return config.auditChainKeys.map((key) => chainKey(key.id, Buffer.from(key.secret, 'utf8')));
  }
  return config.signingKeys.map((key) =>
    chainKey(`tok-${key.id}`, derive(key.secret, 'canopy activity-log chain')),
  );
}

// Keyed by the knex client's configuration, which its transactions' clients share.
const registry = new WeakMap<object, readonly ChainKey[]>();

/** Makes `keys` the chain keys of every write and verification through this knex instance. */
export function useChainKeys(knex: Knex, keys: readonly ChainKey[]): void {
  registry.set(knex.client.config as object, keys);
}

/**
 * The chain keys registered for this knex instance (or a transaction of it).
 *
 * @throws Error when none were: the server registers them at start ({@link useChainKeys}).
 */
export function registeredChainKeys(knex: Knex | Knex.Transaction): readonly ChainKey[] {
  const keys = registry.get(knex.client.config as object);
  if (!keys || keys.length === 0) {
    throw new Error(
      'No activity-log chain key is registered for this database: call useChainKeys(knex, chainKeysOf(config)) first.',
    );
  }
  return keys;
}
