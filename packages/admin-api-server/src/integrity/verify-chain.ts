import type { Knex } from 'knex';
import { applyDateFilter } from '../database/date-filter';
import type { DateFilter } from '../validation/query-schemas';
import { registeredChainKeys } from './chain-keys';
import { AnchorError, chainAnchorOf, type ChainAnchor } from './chain-anchors';
import { chainHash, GENESIS_HASH, type ChainedFields } from './hash-chain';

/** Why a link is broken. */
export type BrokenLinkReason =
  /** The log's content no longer matches its hash (it was modified). */
  | 'content_modified'
  /** The log's `previous_hash` is not the hash of the log before it (one was altered or inserted). */
  | 'previous_hash_mismatch'
  /** A sequence number is missing (a log was deleted). */
  | 'missing_link'
  /** The link names a chain key this server does not hold (CANOPY_AUDIT_CHAIN_KEYS lacks it). */
  | 'unknown_key'
  /** An unkeyed (plain SHA-256) link after the first keyed one: someone re-hashed without the key. */
  | 'unkeyed_link'
  /**
   * The stored chain head names another last link than the logs hold: the newest logs were
   * deleted (or the head was altered).
   */
  | 'chain_head_mismatch'
  /** The retention anchor (where the chain resumes after a purge) does not verify: it was altered. */
  | 'anchor_invalid';

/** The result of a chain verification. */
export interface IntegrityReport {
  valid: boolean;
  /** Number of links checked. */
  checked: number;
  /** Chain positions covered, or null when the range holds no log. */
  fromSequence: number | null;
  toSequence: number | null;
  firstBrokenLink: null | {
    id: string | null;
    sequence: number;
    createdAt: string | null;
    reason: BrokenLinkReason;
  };
}

/** A stored `activity_logs` row, as the chain reads it. */
export interface ChainRow {
  id: string;
  project_id: number;
  environment_id: number;
  user_id: number;
  team_id: number;
  collection_name: string | null;
  type: string;
  action: string;
  label: string | null;
  record_ids: string[];
  inbox_name: string | null;
  workflow: unknown;
  created_at: Date;
  chain_seq: string;
  previous_hash: string;
  hash: string;
  key_id: string | null;
}

const BATCH = 1000;

/** The fields a stored `activity_logs` row's link covers. */
export function chainedFieldsOf(row: ChainRow): ChainedFields {
  return {
    chainSeq: Number(row.chain_seq),
    projectId: row.project_id,
    environmentId: row.environment_id,
    userId: row.user_id,
    teamId: row.team_id,
    collectionName: row.collection_name,
    type: row.type,
    action: row.action,
    label: row.label,
    recordIds: row.record_ids,
    inboxName: row.inbox_name,
    workflow: row.workflow,
    createdAt: row.created_at,
  };
}

/** The link hash of a stored row, under the key it names (none for links before keying). */
function recompute(row: ChainRow, key: { secret: Buffer } | undefined): string {
  return chainHash(row.previous_hash, chainedFieldsOf(row), key);
}

/**
 * Walks the project's chain, in sequence order, from the first to the last link whose log was
 * created in `range` (every link between them is checked, whatever its date or environment,
 * since a chain cannot be verified with holes), recomputing each HMAC under the key the link
 * names. The stored chain head must name the newest link, so deleting the newest logs is
 * detected whatever the range. Links up to the project's retention anchor (purged, see
 * `purgeActivityLogs`) are not read: the first link after it must continue from the anchor's hash.
 * Reads in batches; memory stays flat. Reports the first broken link.
 */
export async function verifyActivityLogChain(
  knex: Knex,
  projectId: number,
  range: DateFilter,
): Promise<IntegrityReport> {
  const keys = registeredChainKeys(knex);
  // Links up to the anchor were purged by retention: the chain resumes after it.
  let anchor: ChainAnchor | undefined;
  try {
    anchor = await chainAnchorOf(knex, projectId);
  } catch (error) {
    if (!(error instanceof AnchorError)) throw error;
    return {
      valid: false,
      checked: 0,
      fromSequence: null,
      toSequence: null,
      firstBrokenLink: { id: null, sequence: 0, createdAt: null, reason: 'anchor_invalid' },
    };
  }
  const anchorSeq = anchor?.sequence ?? 0;
  // One statement, so a log appended meanwhile cannot make head and newest link disagree.
  const { rows: state } = await knex.raw<{
    rows: {
      head_seq: string | null;
      head_hash: string | null;
      last_seq: string | null;
      last_hash: string | null;
    }[];
  }>(
    `SELECT h.last_seq AS head_seq, h.last_hash AS head_hash, l.chain_seq AS last_seq, l.hash AS last_hash
       FROM (SELECT 1) one
       LEFT JOIN activity_log_chain_heads h ON h.project_id = :projectId
       LEFT JOIN LATERAL (SELECT chain_seq, hash FROM activity_logs WHERE project_id = :projectId
                          AND chain_seq > :anchorSeq ORDER BY chain_seq DESC LIMIT 1) l ON true`,
    { projectId, anchorSeq },
  );
  const headSeq = Number(state[0]?.head_seq ?? 0);
  const lastSeq = Number(state[0]?.last_seq ?? anchorSeq);
  const lastHash = state[0]?.last_seq == null ? anchor?.hash : state[0]?.last_hash;
  if (headSeq !== lastSeq || (lastSeq > 0 && state[0]?.head_hash !== lastHash)) {
    return {
      valid: false,
      checked: 0,
      fromSequence: null,
      toSequence: null,
      firstBrokenLink: {
        id: null,
        sequence: Math.min(headSeq, lastSeq) + 1,
        createdAt: null,
        reason: 'chain_head_mismatch',
      },
    };
  }

  const bounds = await applyDateFilter(
    knex('activity_logs').where({ project_id: projectId }).where('chain_seq', '>', anchorSeq),
    'created_at',
    range,
  ).first(knex.raw('min(chain_seq) as first'), knex.raw('max(chain_seq) as last'));
  if (bounds?.first == null) {
    return { valid: true, checked: 0, fromSequence: null, toSequence: null, firstBrokenLink: null };
  }
  const first = Number(bounds.first);
  const last = Number(bounds.last);
  let expectedPrevious: string | undefined;
  if (first === 1) {
    expectedPrevious = GENESIS_HASH;
  } else if (anchor && first === anchorSeq + 1) {
    expectedPrevious = anchor.hash;
  } else {
    const predecessor = await knex('activity_logs')
      .where({ project_id: projectId, chain_seq: first - 1 })
      .first('hash');
    expectedPrevious = predecessor?.hash;
  }
  // Whether a keyed link precedes the range: then no plain link may follow.
  let keyed =
    (anchor?.keyed === true && first > anchorSeq) ||
    (first > 1 &&
      (await knex('activity_logs')
        .where({ project_id: projectId })
        .where('chain_seq', '>', anchorSeq)
        .where('chain_seq', '<', first)
        .whereNotNull('key_id')
        .first('id')) !== undefined);
  let checked = 0;
  let nextSeq = first;
  const report = (
    valid: boolean,
    broken: IntegrityReport['firstBrokenLink'] = null,
  ): IntegrityReport => ({
    valid,
    checked,
    fromSequence: first,
    toSequence: last,
    firstBrokenLink: broken,
  });

  if (expectedPrevious === undefined) {
    return report(false, {
      id: null,
      sequence: first - 1,
      createdAt: null,
      reason: 'missing_link',
    });
  }
  while (nextSeq <= last) {
    const rows: ChainRow[] = await knex('activity_logs')
      .where({ project_id: projectId })
      .andWhere('chain_seq', '>=', nextSeq)
      .andWhere('chain_seq', '<=', last)
      .orderBy('chain_seq')
      .limit(BATCH)
      .select('*');
    for (const row of rows) {
      const seq = Number(row.chain_seq);
      if (seq !== nextSeq) {
        return report(false, {
          id: null,
          sequence: nextSeq,
          createdAt: null,
          reason: 'missing_link',
        });
      }
      const broken = (reason: BrokenLinkReason) =>
        report(false, {
          id: String(row.id),
          sequence: seq,
          createdAt: row.created_at.toISOString(),
          reason,
        });
      if (row.previous_hash !== expectedPrevious) return broken('previous_hash_mismatch');
      const key =
        row.key_id === null ? undefined : keys.find((candidate) => candidate.id === row.key_id);
      if (row.key_id !== null && !key) return broken('unknown_key');
      if (row.key_id === null && keyed) return broken('unkeyed_link');
      if (recompute(row, key) !== row.hash) return broken('content_modified');
      keyed ||= row.key_id !== null;
      expectedPrevious = row.hash;
      checked += 1;
      nextSeq += 1;
    }
    if (rows.length === 0) {
      return report(false, {
        id: null,
        sequence: nextSeq,
        createdAt: null,
        reason: 'missing_link',
      });
    }
  }
  return report(true);
}
