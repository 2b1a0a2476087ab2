import type { Knex } from 'knex';
import { chainAnchorOf, recordChainAnchor } from '../integrity/chain-anchors';
import { insertAdminLogs } from './admin-log-writer';
import { listActivityLogPartitions, monthStart } from './activity-log-partitions';

/** Rows deleted per statement when a purge cannot drop a whole partition. */
export const PURGE_BATCH = 5_000;
/** The longest retention accepted (100 years). */
export const MAX_RETENTION_MONTHS = 1200;

/** What one project's purge removed. */
export interface ProjectPurge {
  readonly projectId: number;
  readonly projectName: string;
  readonly retentionMonths: number;
  /** Logs created before this instant are purged. */
  readonly cutoff: Date;
  /** Logs removed, by partition drops and batched deletes together. */
  readonly rowsRemoved: number;
  /** The last link purged: verification of the chain resumes after it. */
  readonly anchorSequence: number;
}

/** What a purge run did. */
export interface PurgeReport {
  /** False when another process was purging (it holds the lock): this run did nothing. */
  readonly ran: boolean;
  readonly projects: ProjectPurge[];
  readonly partitionsDropped: string[];
}

/** `date` minus `months` calendar months (UTC), clamped to the end of shorter months. */
export function monthsBefore(date: Date, months: number): Date {
  const target = new Date(date.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() - months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

interface Plan {
  project: { id: number; name: string };
  retentionMonths: number;
  cutoff: Date;
  /** Links up to this sequence are purged. */
  anchor: number;
  previousAnchor: number;
  removed: number;
}

/**
 * Applies each project's activity-log retention (`projects.activity_log_retention_months`; null
 * keeps forever): the logs created before `now` minus that many months are removed, and each
 * purge is recorded in the project's admin log (initiator `forestAdmin`: the system).
 *
 * The chain stays verifiable: a purge removes a prefix of the project's chain, the links up to
 * the last one whose log and every earlier log are older than the cutoff (a link older than the
 * cutoff but after a newer one, which agents' own timestamps can produce, is kept until the
 * links before it go), and records a signed anchor with the last removed link's hash, from
 * which verification resumes.
 *
 * Partitions are monthly across projects: a partition is DROPped only when every row in it is
 * purged for its project (no project keeps any of it); the other expired rows are deleted in
 * batches of {@link PURGE_BATCH}. One process purges at a time (a session advisory lock; a
 * second caller returns `ran: false` at once).
 */
export async function purgeExpiredActivityLogs(
  knex: Knex,
  options: { now?: Date; batchSize?: number } = {},
): Promise<PurgeReport> {
  const now = options.now ?? new Date();
  const batch = options.batchSize ?? PURGE_BATCH;
  // One connection for the whole run: it holds the session lock, and the embedded database has
  // only one.
  const conn = await knex.client.acquireConnection();
  const raw = <T = { rows: Record<string, unknown>[] }>(sql: string, bindings: unknown[] = []) =>
    knex.raw<T>(sql, bindings as Knex.RawBinding[]).connection(conn);
  try {
    const schema = (await raw<{ rows: { s: string }[] }>('SELECT current_schema() AS s')).rows[0]!
      .s;
    const lockKey = `canopy:activity_log_retention:${schema}`;
    const locked = await raw<{ rows: { ok: boolean }[] }>(
      'SELECT pg_try_advisory_lock(hashtext(?)) AS ok',
      [lockKey],
    );
    if (!locked.rows[0]?.ok) return { ran: false, projects: [], partitionsDropped: [] };
    try {
      return await purge(knex, conn, raw, now, batch);
    } finally {
      await raw('SELECT pg_advisory_unlock(hashtext(?))', [lockKey]);
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

async function purge(
  knex: Knex,
  conn: unknown,
  raw: <T = { rows: Record<string, unknown>[] }>(sql: string, bindings?: unknown[]) => Knex.Raw<T>,
  now: Date,
  batch: number,
): Promise<PurgeReport> {
  /** A transaction on the run's own connection. */
  const onConn = <T>(run: (trx: Knex.Transaction) => Promise<T>): Promise<T> =>
    knex.transaction(run, { connection: conn });
  const projects = await knex('projects')
    .whereNotNull('activity_log_retention_months')
    .orderBy('id')
    .select('id', 'name', 'activity_log_retention_months')
    .connection(conn);
  // 1. Where each project's chain is cut, anchored before anything is removed.
  const plans: Plan[] = [];
  for (const project of projects) {
    const retentionMonths = Number(project.activity_log_retention_months);
    const cutoff = monthsBefore(now, retentionMonths);
    const previous = await onConn((trx) => chainAnchorOf(trx, project.id));
    const previousAnchor = previous?.sequence ?? 0;
    const kept = await raw<{ rows: { seq: string }[] }>(
      `SELECT chain_seq AS seq FROM activity_logs
        WHERE project_id = ? AND chain_seq > ? AND created_at >= ? ORDER BY chain_seq LIMIT 1`,
      [project.id, previousAnchor, cutoff],
    );
    let anchor: number;
    if (kept.rows[0]) anchor = Number(kept.rows[0].seq) - 1;
    else {
      const head = await raw<{ rows: { seq: string }[] }>(
        'SELECT last_seq AS seq FROM activity_log_chain_heads WHERE project_id = ?',
        [project.id],
      );
      anchor = Number(head.rows[0]?.seq ?? 0);
    }
    if (anchor > previousAnchor) {
      const link = await raw<{ rows: { hash: string }[] }>(
        'SELECT hash FROM activity_logs WHERE project_id = ? AND chain_seq = ?',
        [project.id, anchor],
      );
      const keyed =
        previous?.keyed === true ||
        (
          await raw(
            `SELECT 1 FROM activity_logs WHERE project_id = ? AND chain_seq > ? AND chain_seq <= ?
               AND key_id IS NOT NULL LIMIT 1`,
            [project.id, previousAnchor, anchor],
          )
        ).rows.length > 0;
      if (!link.rows[0]) {
        throw new Error(
          `Cannot purge project ${project.id}: chain link ${anchor} is missing; verify its chain.`,
        );
      }
      const hash = link.rows[0].hash;
      await onConn((trx) =>
        recordChainAnchor(trx, project, { sequence: anchor, hash, keyed, cutoff }),
      );
    }
    plans.push({
      project,
      retentionMonths,
      cutoff,
      anchor: Math.max(anchor, previousAnchor),
      previousAnchor,
      removed: 0,
    });
  }
  const byProject = new Map(plans.map((plan) => [plan.project.id, plan]));

  // 2. Whole partitions whose every row is purged for its project. Only a partition that starts
  // before the latest cutoff can be; each project is checked with one probe of the
  // (project_id, chain_seq) index (does it keep a row here?) before anything is counted.
  const partitionsDropped: string[] = [];
  const currentMonth = monthStart(now);
  const latestCutoff = Math.max(0, ...plans.map((plan) => plan.cutoff.getTime()));
  const projectIds: number[] =
    plans.length === 0 ? [] : await knex('projects').pluck('id').connection(conn);
  for (const partition of await onConn((trx) => listActivityLogPartitions(trx))) {
    if (partition.from === null || partition.to === null || partition.to > currentMonth) continue;
    if (partition.from.getTime() >= latestCutoff) continue;
    await onConn(async (trx) => {
      await trx.raw('SET LOCAL statement_timeout = 0');
      // No log can arrive in it between the check and the drop.
      await trx.raw('LOCK TABLE ?? IN SHARE MODE', [partition.name]);
      for (const id of projectIds) {
        const kept = await trx.raw<{ rows: unknown[] }>(
          'SELECT 1 FROM ?? WHERE project_id = ? AND chain_seq > ? LIMIT 1',
          [partition.name, id, byProject.get(id)?.anchor ?? 0],
        );
        if (kept.rows.length > 0) return;
      }
      const { rows } = await trx.raw<{ rows: { project_id: number; n: string }[] }>(
        'SELECT project_id, count(*) AS n FROM ?? GROUP BY project_id',
        [partition.name],
      );
      // An empty month stays: nothing of it was purged.
      if (rows.length === 0) return;
      await trx.raw('DROP TABLE ??', [partition.name]);
      partitionsDropped.push(partition.name);
      for (const row of rows) byProject.get(row.project_id)!.removed += Number(row.n);
    });
  }

  // 3. The other purged rows, in batches, each its own statement, partition by partition (only
  // those before the cutoff can hold them: every purged link is older than it).
  const remaining = await onConn((trx) => listActivityLogPartitions(trx));
  for (const plan of plans) {
    if (plan.anchor === 0) continue;
    for (const partition of remaining) {
      if (partition.from !== null && partition.from >= plan.cutoff) continue;
      for (;;) {
        const deleted = await raw<{ rowCount: number }>(
          `DELETE FROM ?? WHERE ctid = ANY (ARRAY(
             SELECT ctid FROM ?? WHERE project_id = ? AND chain_seq <= ? LIMIT ?))`,
          [partition.name, partition.name, plan.project.id, plan.anchor, batch],
        );
        plan.removed += deleted.rowCount;
        if (deleted.rowCount < batch) break;
      }
    }
  }

  // 4. The admin log of each project whose logs were purged.
  const report: ProjectPurge[] = [];
  for (const plan of plans) {
    if (plan.removed === 0 && plan.anchor === plan.previousAnchor) continue;
    const purge: ProjectPurge = {
      projectId: plan.project.id,
      projectName: plan.project.name,
      retentionMonths: plan.retentionMonths,
      cutoff: plan.cutoff,
      rowsRemoved: plan.removed,
      anchorSequence: plan.anchor,
    };
    report.push(purge);
    await onConn((trx) =>
      insertAdminLogs(trx, plan.project.id, [
        {
          type: 'remove',
          resource: 'activity-logs',
          initiator: 'forestAdmin',
          userId: null,
          previousValue: {
            retentionMonths: purge.retentionMonths,
            cutoff: purge.cutoff.toISOString(),
            rowsRemoved: purge.rowsRemoved,
            lastPurgedSequence: purge.anchorSequence,
          },
        },
      ]),
    );
  }
  return { ran: true, projects: report, partitionsDropped };
}
