import { createHash, createHmac } from 'node:crypto';

/** `previous_hash` of the first activity log of a project. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of an activity log that its hash covers. */
export interface ChainedFields {
  readonly chainSeq: number;
  readonly projectId: number;
  readonly environmentId: number;
  readonly userId: number;
  readonly teamId: number;
  readonly collectionName: string | null;
  readonly type: string;
  readonly action: string;
  readonly label: string | null;
  readonly recordIds: readonly string[];
  readonly inboxName: string | null;
  readonly workflow: unknown;
  readonly createdAt: Date;
}

/**
 * The canonical form of an activity log: a JSON array in a fixed field order (objects inside
 * with sorted keys), so the same log always hashes the same whatever produced it.
 */
export function canonicalForm(fields: ChainedFields): string {
  return JSON.stringify([
    fields.chainSeq,
    fields.projectId,
    fields.environmentId,
    fields.userId,
    fields.teamId,
    fields.collectionName,
    fields.type,
    fields.action,
    fields.label,
    fields.recordIds,
    fields.inboxName,
    sortKeys(fields.workflow ?? null),
    fields.createdAt.toISOString(),
  ]);
}

/**
 * The link of the chain: HMAC-SHA-256 (hex) under the chain key of the previous hash and the
 * canonical form, so that nobody without the key can re-hash a modified chain. Without a key,
 * the plain SHA-256 of links written before the chain was keyed (they keep verifying).
 */
export function chainHash(
  previousHash: string,
  fields: ChainedFields,
  key?: { readonly secret: Buffer },
): string {
  return (key ? createHmac('sha256', key.secret) : createHash('sha256'))
    .update(previousHash)
    .update('\n')
    .update(canonicalForm(fields))
    .digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
