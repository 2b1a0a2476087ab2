import { createPublicKey, sign, verify, type JsonWebKey } from 'node:crypto';
import type { Knex } from 'knex';
import { chainAnchorOf } from './chain-anchors';
import { registeredChainKeys, type ChainKey } from './chain-keys';
import { GENESIS_HASH } from './hash-chain';
import { verifyActivityLogChain, type IntegrityReport } from './verify-chain';

/**
 * A signed statement of a project's chain head: "link `sequence` of project `projectId` has hash
 * `hash`". Kept outside the server (an auditor's store), it later proves that the chain still
 * holds that link: deleting or rewriting links up to it is then detected even by someone who can
 * write the database and knows the chain key.
 */
export interface ChainCheckpoint {
  readonly format: 'canopy-activity-log-checkpoint/1';
  readonly projectId: number;
  readonly projectName: string;
  readonly sequence: number;
  readonly hash: string;
  /** The chain key whose Ed25519 checkpoint key signed this. */
  readonly keyId: string;
  readonly signedAt: string;
  /** Ed25519 signature (base64url) of {@link checkpointSigningInput}. */
  readonly signature: string;
}

/** A checkpoint public key, as the auditor pins it (JWK, `kid` = chain key id). */
export interface CheckpointPublicKey extends JsonWebKey {
  readonly kid: string;
}

/** The bytes a checkpoint's signature covers: every field but the signature, in a fixed order. */
export function checkpointSigningInput(checkpoint: Omit<ChainCheckpoint, 'signature'>): Buffer {
  return Buffer.from(
    JSON.stringify([
      checkpoint.format,
      checkpoint.projectId,
      checkpoint.projectName,
      checkpoint.sequence,
      checkpoint.hash,
      checkpoint.keyId,
      checkpoint.signedAt,
    ]),
  );
}

/** The public keys that verify checkpoints, newest first. */
export function checkpointPublicKeys(keys: readonly ChainKey[]): CheckpointPublicKey[] {
  return keys.map((key) => ({ ...key.checkpointPublicKey.export({ format: 'jwk' }), kid: key.id }));
}

/** A checkpoint of the project's chain at `sequence` (whose link hash is `hash`), signed now. */
export function signCheckpoint(
  key: ChainKey,
  project: { id: number; name: string },
  sequence: number,
  hash: string,
): ChainCheckpoint {
  const unsigned = {
    format: 'canopy-activity-log-checkpoint/1' as const,
    projectId: project.id,
    projectName: project.name,
    sequence,
    hash,
    keyId: key.id,
    signedAt: new Date().toISOString(),
  };
  return {
    ...unsigned,
    signature: sign(null, checkpointSigningInput(unsigned), key.checkpointKey).toString(
      'base64url',
    ),
  };
}

/**
 * Signs the project's current chain head with the newest key and keeps the checkpoint (one per
 * head: asking again before new logs arrive returns the stored one).
 */
export async function checkpointChainHead(
  knex: Knex,
  project: { id: number; name: string },
): Promise<ChainCheckpoint> {
  const [key] = registeredChainKeys(knex);
  const head = await knex('activity_log_chain_heads')
    .where({ project_id: project.id })
    .first('last_seq', 'last_hash');
  const sequence = Number(head?.last_seq ?? 0);
  const stored = await knex('activity_log_checkpoints')
    .where({ project_id: project.id, sequence })
    .first('checkpoint');
  if (stored) return stored.checkpoint as ChainCheckpoint;
  const checkpoint = signCheckpoint(key!, project, sequence, head?.last_hash ?? GENESIS_HASH);
  const [row] = await knex('activity_log_checkpoints')
    .insert({
      project_id: project.id,
      sequence,
      checkpoint: JSON.stringify(checkpoint),
      signed_at: new Date(checkpoint.signedAt),
    })
    .onConflict(['project_id', 'sequence'])
    .merge({ project_id: project.id })
    .returning('checkpoint');
  return row.checkpoint as ChainCheckpoint;
}

/** Every checkpoint published for a project, oldest first. */
export async function listCheckpoints(knex: Knex, projectId: number): Promise<ChainCheckpoint[]> {
  const rows = await knex('activity_log_checkpoints')
    .where({ project_id: projectId })
    .orderBy('sequence')
    .select('checkpoint');
  return rows.map((row) => row.checkpoint as ChainCheckpoint);
}

/** Whether a checkpoint carries a valid signature by one of `publicKeys` (its `keyId`). */
export function checkpointSignatureIsValid(
  checkpoint: ChainCheckpoint,
  publicKeys: readonly CheckpointPublicKey[],
): boolean {
  const jwk = publicKeys.find((key) => key.kid === checkpoint.keyId);
  if (!jwk || typeof checkpoint.signature !== 'string') return false;
  const { kid: _kid, ...material } = jwk;
  try {
    return verify(
      null,
      checkpointSigningInput(checkpoint),
      createPublicKey({ key: material, format: 'jwk' }),
      Buffer.from(checkpoint.signature, 'base64url'),
    );
  } catch {
    return false;
  }
}

/** The verification of a chain against checkpoints kept elsewhere. */
export interface CheckpointReport {
  readonly valid: boolean;
  /** The chain's own verification (keys, links, head). */
  readonly chain: IntegrityReport;
  readonly checkpointsChecked: number;
  /** The first checkpoint the chain contradicts, in the order given. */
  readonly firstFailedCheckpoint: null | {
    sequence: number;
    reason: 'bad_signature' | 'other_project' | 'missing_link' | 'hash_mismatch';
  };
}

/**
 * Verifies the project's whole chain, then that it still holds every checkpoint: signature by a
 * pinned public key, then the link at its sequence with its hash. A checkpoint of a link purged by
 * retention is held by the signed anchor instead (at the anchor's own sequence, the hashes must match).
 */
export async function verifyAgainstCheckpoints(
  knex: Knex,
  projectId: number,
  checkpoints: readonly ChainCheckpoint[],
  publicKeys: readonly CheckpointPublicKey[],
): Promise<CheckpointReport> {
  const chain = await verifyActivityLogChain(knex, projectId, {});
  const anchor =
    chain.firstBrokenLink?.reason === 'anchor_invalid'
      ? undefined
      : await chainAnchorOf(knex, projectId);
  let checked = 0;
  const fail = (
    sequence: number,
    reason: NonNullable<CheckpointReport['firstFailedCheckpoint']>['reason'],
  ): CheckpointReport => ({
    valid: false,
    chain,
    checkpointsChecked: checked,
    firstFailedCheckpoint: { sequence, reason },
  });
  for (const checkpoint of checkpoints) {
    if (!checkpointSignatureIsValid(checkpoint, publicKeys)) {
      return fail(checkpoint.sequence, 'bad_signature');
    }
    if (checkpoint.projectId !== projectId) return fail(checkpoint.sequence, 'other_project');
    if (anchor && checkpoint.sequence <= anchor.sequence) {
      // Purged by retention: the signed anchor stands for those links; its own link must match.
      if (checkpoint.sequence === anchor.sequence && checkpoint.hash !== anchor.hash) {
        return fail(checkpoint.sequence, 'hash_mismatch');
      }
    } else if (checkpoint.sequence > 0) {
      const link = await knex('activity_logs')
        .where({ project_id: projectId, chain_seq: checkpoint.sequence })
        .first('hash');
      if (!link) return fail(checkpoint.sequence, 'missing_link');
      if (link.hash !== checkpoint.hash) return fail(checkpoint.sequence, 'hash_mismatch');
    }
    checked += 1;
  }
  return { valid: chain.valid, chain, checkpointsChecked: checked, firstFailedCheckpoint: null };
}
