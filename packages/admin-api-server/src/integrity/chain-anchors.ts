import type { Knex } from 'knex';
import { registeredChainKeys } from './chain-keys';
import {
  checkpointPublicKeys,
  checkpointSignatureIsValid,
  signCheckpoint,
  type ChainCheckpoint,
} from './checkpoints';

/**
 * Where a project's chain resumes after a retention purge: the last purged link's sequence and
 * hash (the `previous_hash` of the first link kept), and whether a keyed link was among those
 * purged (then no plain link may follow). Its `checkpoint` is the same statement signed with the
 * chain's Ed25519 checkpoint key, so an anchor cannot be forged to hide deleted links by someone
 * without the key; auditors holding older checkpoints check them against it.
 */
export interface ChainAnchor {
  readonly sequence: number;
  readonly hash: string;
  readonly keyed: boolean;
  readonly cutoff: Date;
  readonly checkpoint: ChainCheckpoint;
}

/**
 * The project's anchor, or undefined when nothing was ever purged.
 *
 * @throws Error when the stored anchor's signature does not verify under a registered chain key,
 * or does not state what the row says (the anchor was altered).
 */
export async function chainAnchorOf(
  knex: Knex | Knex.Transaction,
  projectId: number,
): Promise<ChainAnchor | undefined> {
  const row = await knex('activity_log_chain_anchors').where({ project_id: projectId }).first();
  if (!row) return undefined;
  const anchor: ChainAnchor = {
    sequence: Number(row.sequence),
    hash: row.hash,
    keyed: row.keyed,
    cutoff: row.cutoff,
    checkpoint: row.checkpoint as ChainCheckpoint,
  };
  const publicKeys = checkpointPublicKeys(registeredChainKeys(knex));
  if (
    !checkpointSignatureIsValid(anchor.checkpoint, publicKeys) ||
    anchor.checkpoint.projectId !== projectId ||
    anchor.checkpoint.sequence !== anchor.sequence ||
    anchor.checkpoint.hash !== anchor.hash
  ) {
    throw new AnchorError(projectId);
  }
  return anchor;
}

/** A stored retention anchor that its signature does not cover. */
export class AnchorError extends Error {
  constructor(readonly projectId: number) {
    super(`The retention anchor of project ${projectId} does not verify: it was altered.`);
  }
}

/**
 * Records (or moves forward) the project's anchor at link `sequence` with `hash`, signed with
 * the newest chain key. Runs in the purge's transaction.
 */
export async function recordChainAnchor(
  trx: Knex.Transaction,
  project: { id: number; name: string },
  anchor: { sequence: number; hash: string; keyed: boolean; cutoff: Date },
): Promise<ChainAnchor> {
  const [key] = registeredChainKeys(trx);
  const checkpoint = signCheckpoint(key!, project, anchor.sequence, anchor.hash);
  const row = {
    project_id: project.id,
    sequence: anchor.sequence,
    hash: anchor.hash,
    keyed: anchor.keyed,
    cutoff: anchor.cutoff,
    checkpoint: JSON.stringify(checkpoint),
    updated_at: new Date(),
  };
  await trx('activity_log_chain_anchors').insert(row).onConflict('project_id').merge();
  return { ...anchor, checkpoint };
}
