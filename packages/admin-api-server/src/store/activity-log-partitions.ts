import type { Knex } from 'knex';

/**
 * `activity_logs` is partitioned by RANGE on `created_at`, one partition per calendar month (UTC),
 * named `activity_logs_yYYYYmMM`, plus `activity_logs_default` for rows outside every month
 * created so far. The server creates the current and next months ahead at start and daily;
 * `canopy-admin-api partitions create` does the same by hand.
 */
export const PARTITIONED_TABLE = 'activity_logs';
/** The partition that catches rows of months without their own partition. */
export const DEFAULT_PARTITION = 'activity_logs_default';
/** Months created ahead of the current one by default (the current month is always created). */
export const DEFAULT_MONTHS_AHEAD = 3;

/** The first instant (UTC) of the month of `date`, shifted by `offset` months. */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

/** The partition name of the month starting at `start`. */
export function partitionName(start: Date): string {
  const month = String(start.getUTCMonth() + 1).padStart(2, '0');
  return `${PARTITIONED_TABLE}_y${start.getUTCFullYear()}m${month}`;
}

/** One partition of `activity_logs`. */
export interface ActivityLogPartition {
  readonly name: string;
  /** Inclusive lower bound; null for the default partition. */
  readonly from: Date | null;
  /** Exclusive upper bound; null for the default partition. */
  readonly to: Date | null;
  /** The planner's estimate of its rows (`pg_class.reltuples`; -1 before its first ANALYZE). */
  readonly estimatedRows: number;
}

/** The partitions of `activity_logs` in the current schema, oldest first, the default one last. */
export async function listActivityLogPartitions(
  knex: Knex | Knex.Transaction,
): Promise<ActivityLogPartition[]> {
  const { rows } = await knex.raw<{
    rows: { name: string; bound: string; reltuples: number }[];
  }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, c.reltuples
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
      WHERE p.relname = ? AND n.nspname = current_schema()`,
    [PARTITIONED_TABLE],
  );
  const partitions = rows.map((row): ActivityLogPartition => {
    const bounds = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(row.bound);
    return {
      name: row.name,
      from: bounds ? boundInstant(bounds[1]!) : null,
      to: bounds ? boundInstant(bounds[2]!) : null,
      estimatedRows: Number(row.reltuples),
    };
  });
  return partitions.sort((a, b) =>
    a.from === null ? 1 : b.from === null ? -1 : a.from.getTime() - b.from.getTime(),
  );
}

/**
 * A bound as `pg_get_expr` prints it, in the session's time zone: `2026-11-01 00:00:00+00`, or
 * `2026-10-31 20:00:00-04`, or with a half-hour offset `+05:30`.
 */
export function boundInstant(text: string): Date {
  const match =
    /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?(?::\d\d)?$/.exec(text);
  if (!match) throw new Error(`Unexpected partition bound "${text}".`);
  return new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? '00'}`);
}

/** Whether `activity_logs` is a partitioned table here (the migration has run). */
async function isPartitioned(trx: Knex.Transaction): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { kind: string }[] }>(
    `SELECT c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relname = ? AND n.nspname = current_schema()`,
    [PARTITIONED_TABLE],
  );
  return rows[0]?.kind === 'p';
}

/**
 * Creates the monthly partition starting at `start` unless it exists. Rows of that month already
 * caught by the default partition are moved into it (PostgreSQL refuses the new partition
 * otherwise). Runs in the caller's transaction, which must hold the partitions lock.
 *
 * @returns whether it was created.
 */
async function createMonth(trx: Knex.Transaction, start: Date): Promise<boolean> {
  const name = partitionName(start);
  const exists = await trx.raw<{ rows: { oid: string | null }[] }>('SELECT to_regclass(?) AS oid', [
    name,
  ]);
  if (exists.rows[0]?.oid) return false;
  const from = start.toISOString();
  const to = monthStart(start, 1).toISOString();
  const strays = await trx.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM ${DEFAULT_PARTITION} WHERE created_at >= ? AND created_at < ? LIMIT 1`,
    [from, to],
  );
  if (strays.rows.length === 0) {
    await trx.raw(
      `CREATE TABLE ?? PARTITION OF ${PARTITIONED_TABLE} FOR VALUES FROM ('${from}') TO ('${to}')`,
      [name],
    );
    return true;
  }
  // Build the month beside the table, move its rows out of the default partition, then attach.
  await trx.raw(
    `CREATE TABLE ?? (LIKE ${PARTITIONED_TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
    [name],
  );
  await trx.raw(
    `WITH moved AS (DELETE FROM ${DEFAULT_PARTITION} WHERE created_at >= ? AND created_at < ? RETURNING *)
     INSERT INTO ?? SELECT * FROM moved`,
    [from, to, name],
  );
  await trx.raw(
    `ALTER TABLE ?? ADD CONSTRAINT ?? CHECK (created_at >= '${from}' AND created_at < '${to}')`,
    [name, `${name}_bounds`],
  );
  await trx.raw(
    `ALTER TABLE ${PARTITIONED_TABLE} ATTACH PARTITION ?? FOR VALUES FROM ('${from}') TO ('${to}')`,
    [name],
  );
  await trx.raw('ALTER TABLE ?? DROP CONSTRAINT ??', [name, `${name}_bounds`]);
  return true;
}

/**
 * Serializes partition changes of this schema across processes (replicas, the CLI): a
 * transaction-scoped advisory lock, so a crashed holder releases it.
 */
export async function lockPartitions(trx: Knex.Transaction): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [
    `canopy:activity_log_partitions:${(await trx.raw('SELECT current_schema() AS s')).rows[0].s}`,
  ]);
}

/**
 * Makes sure the partitions of the months from `from` (default now) to `monthsAhead` months
 * after it exist. Safe when several processes call it at once (they take turns on an advisory
 * lock and skip what exists). Does nothing when `activity_logs` is not partitioned.
 *
 * @returns the names of the partitions created by this call.
 */
export async function ensureActivityLogPartitions(
  knex: Knex,
  options: { monthsAhead?: number; from?: Date } = {},
): Promise<string[]> {
  const monthsAhead = options.monthsAhead ?? DEFAULT_MONTHS_AHEAD;
  if (!Number.isInteger(monthsAhead) || monthsAhead < 0 || monthsAhead > 1200) {
    throw new RangeError('monthsAhead must be a whole number from 0 to 1200.');
  }
  const first = monthStart(options.from ?? new Date());
  return knex.transaction(async (trx) => {
    await lockPartitions(trx);
    if (!(await isPartitioned(trx))) return [];
    const created: string[] = [];
    for (let offset = 0; offset <= monthsAhead; offset += 1) {
      const start = monthStart(first, offset);
      if (await createMonth(trx, start)) created.push(partitionName(start));
    }
    return created;
  });
}

/**
 * Runs `run` every `intervalMs` (default daily) until `stop()`, which also waits for a run in
 * progress; a failure goes to `onError` and the next tick tries again. The timer does not keep
 * the process alive.
 */
export function scheduleDaily(
  run: () => Promise<void>,
  onError: (error: unknown) => void,
  intervalMs = 86_400_000,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= run()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
