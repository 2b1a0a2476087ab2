import { ACTIVITY_LOG_ACTIONS, type ActivityLogAction } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import { registeredChainKeys } from '../integrity/chain-keys';
import { chainHash, GENESIS_HASH } from '../integrity/hash-chain';

/** The `action` values of activity logs (the published contract's list, kept in one place). */
export const ACTIVITY_ACTIONS = ACTIVITY_LOG_ACTIONS;
/** One activity-log action. */
export type ActivityAction = ActivityLogAction;
/** Whether an activity read or wrote data. */
export type ActivityType = 'read' | 'write';

/** What a caller (note writes, tests, the future agent ingestion) records. */
export interface ActivityLogInput {
  environmentId: number;
  userId: number;
  teamId: number;
  type: ActivityType;
  action: ActivityAction;
  collectionName?: string | null;
  label?: string | null;
  recordIds?: string[];
  inbox?: { name: string } | null;
  workflow?: { name: string; runId: string; stepName?: string; optionName?: string } | null;
  /** Defaults to now; millisecond precision is kept. */
  createdAt?: Date;
  /**
   * The id the log's author gave it (an agent's log id): the log's public id, unique per
   * environment. Without it, the public id is the row's own.
   */
  externalId?: string | null;
}

/**
 * Appends activity logs to a project's hash chain, in one transaction (the caller's, when given),
 * each link an HMAC under the newest chain key registered for this database (`useChainKeys`).
 * The chain head row is locked, so concurrent writers of one project take turns and the chain
 * has no fork; other projects are not blocked.
 *
 * @returns the ids of the inserted logs, in input order.
 */
export async function insertActivityLogs(
  knex: Knex | Knex.Transaction,
  projectId: number,
  inputs: readonly ActivityLogInput[],
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const run = async (trx: Knex.Transaction): Promise<string[]> => {
    await trx('activity_log_chain_heads')
      .insert({ project_id: projectId, last_seq: 0, last_hash: GENESIS_HASH })
      .onConflict('project_id')
      .ignore();
    const head = await trx('activity_log_chain_heads')
      .where({ project_id: projectId })
      .forUpdate()
      .first('last_seq', 'last_hash');
    const [key] = registeredChainKeys(trx);
    let seq = Number(head.last_seq);
    let previousHash: string = head.last_hash;
    const now = new Date();
    const rows = inputs.map((input) => {
      seq += 1;
      const createdAt = new Date(Math.floor((input.createdAt ?? now).getTime()));
      const fields = {
        chainSeq: seq,
        projectId,
        environmentId: input.environmentId,
        userId: input.userId,
        teamId: input.teamId,
        collectionName: input.collectionName ?? null,
        type: input.type,
        action: input.action,
        label: input.label ?? null,
        recordIds: input.recordIds ?? [],
        inboxName: input.inbox?.name ?? null,
        workflow: input.workflow ?? null,
        createdAt,
      };
      const hash = chainHash(previousHash, fields, key);
      const row = {
        project_id: projectId,
        environment_id: fields.environmentId,
        user_id: fields.userId,
        team_id: fields.teamId,
        collection_name: fields.collectionName,
        type: fields.type,
        action: fields.action,
        label: fields.label,
        record_ids: fields.recordIds,
        inbox_name: fields.inboxName,
        workflow: fields.workflow === null ? null : JSON.stringify(fields.workflow),
        external_id: input.externalId ?? null,
        created_at: createdAt,
        chain_seq: seq,
        previous_hash: previousHash,
        hash,
        key_id: key!.id,
      };
      previousHash = hash;
      return row;
    });
    const ids: string[] = [];
    for (let start = 0; start < rows.length; start += 1000) {
      const inserted: { id: string }[] = await trx('activity_logs')
        .insert(rows.slice(start, start + 1000))
        .returning('id');
      ids.push(...inserted.map((row) => String(row.id)));
    }
    await trx('activity_log_chain_heads')
      .where({ project_id: projectId })
      .update({ last_seq: seq, last_hash: previousHash });
    return ids;
  };
  return knex.isTransaction ? run(knex as Knex.Transaction) : knex.transaction(run);
}
