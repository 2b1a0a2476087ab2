/**
 * What the activity-log benches share: the Bench project (users, environment, team), the signing
 * key, and the bulk load of generated activity logs (generate_series in chunks, secondary indexes
 * dropped during the load and rebuilt after, placeholder hashes: not a valid hash chain).
 */
import type { Knex } from 'knex';
import {
  addProjectMember,
  createAdminApiServer,
  createEnvironment,
  createProject,
  createUser,
  type AdminApiServer,
  type AdminApiServerConfig,
} from '../src';

export const BENCH_USERS = 100;
export const BENCH_ACTIONS = [
  'read',
  'index',
  'update',
  'create',
  'delete',
  'search',
  'filter',
  'action',
  'export',
  'select',
];
export const BENCH_KEYS = [{ id: 'bench', secret: 'benchmark-only-secret-0123456789abcdef' }];

/**
 * An in-process server on the bench schema at `url`, signing with the bench keys, silent, for the
 * benches' data set-up and their in-process measures; `overrides` sets the rest (rate limit,
 * exports).
 */
export function benchServer(
  url: string,
  poolSize: number,
  overrides: Partial<AdminApiServerConfig> = {},
): Promise<AdminApiServer> {
  return createAdminApiServer({
    database: { kind: 'url', url, poolSize },
    port: 0,
    host: '127.0.0.1',
    signingKeys: BENCH_KEYS,
    rateLimit: { points: 1_000_000, durationSeconds: 60, burstPoints: 0, burstDurationSeconds: 60 },
    defaultTokenLifetimeDays: 1,
    logLevel: 'silent',
    trustProxy: false,
    ...overrides,
  });
}

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

export interface BenchProject {
  project: { id: number; name: string };
  environment: { id: number };
  team: { id: number };
  /** The ids of the bench users, in order. */
  users: number[];
}

/** The Bench project with its users, environment and team, created on the first run. */
export async function benchProject(knex: Knex): Promise<BenchProject> {
  let project = await knex('projects').where({ name: 'Bench' }).first();
  if (!project) {
    project = await createProject(knex, { name: 'Bench' });
    await createEnvironment(knex, { projectId: project.id, name: 'Production' });
    for (let i = 1; i <= BENCH_USERS; i += 1) {
      const user = await createUser(knex, {
        email: `user${i}@bench.example`,
        username: `user${i}`,
      });
      await addProjectMember(knex, {
        projectId: project.id,
        userId: user.id,
        permissionLevel: 'admin',
      });
    }
  }
  const environment = await knex('environments')
    .where({ project_id: project.id, name: 'Production' })
    .first();
  const team = await knex('teams').where({ project_id: project.id }).first();
  const users: number[] = await knex('users')
    .where('email', 'like', '%@bench.example')
    .orderBy('id')
    .pluck('id');
  return { project, environment, team, users };
}

/**
 * Loads activity logs `from`..`rows` (chain sequence numbers) of the bench project, spread evenly
 * over [t0, t0 + spanMs), a million rows a statement; then rebuilds the indexes, sets the chain
 * head and analyzes the table. The monthly partitions must exist.
 */
export async function loadActivityLogs(
  knex: Knex,
  bench: BenchProject,
  { from: first, rows, t0, spanMs }: { from: number; rows: number; t0: number; spanMs: number },
): Promise<void> {
  const { project, environment, team, users } = bench;
  const indexes: { indexname: string; indexdef: string }[] = (
    await knex.raw(
      `SELECT indexname, indexdef FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename = 'activity_logs' AND indexname <> 'activity_logs_pkey'`,
    )
  ).rows;
  for (const index of indexes) {
    const constraint = await knex.raw('SELECT 1 FROM pg_constraint WHERE conname = ?', [
      index.indexname,
    ]);
    if (constraint.rows.length > 0) {
      await knex.raw('ALTER TABLE activity_logs DROP CONSTRAINT ??', [index.indexname]);
    } else {
      await knex.raw('DROP INDEX ??', [index.indexname]);
    }
  }
  const chunk = 1_000_000;
  const started = Date.now();
  for (let from = first; from <= rows; from += chunk) {
    const to = Math.min(from + chunk - 1, rows);
    await knex.transaction(async (trx) => {
      await trx.raw('SET LOCAL statement_timeout = 0');
      // Generated ids are known to exist: skip the per-row foreign-key triggers.
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx.raw(
        `INSERT INTO activity_logs (project_id, environment_id, user_id, team_id, collection_name, type, action,
           label, record_ids, created_at, chain_seq, previous_hash, hash)
         SELECT ?, ?, (?::int[])[1 + (g % ?)], ?, 'orders',
                CASE WHEN g % 3 = 0 THEN 'write' ELSE 'read' END,
                (?::text[])[1 + ((g / 7) % ?)],
                'bench', ARRAY[(g % 100000)::text],
                to_timestamp((? + ((g - 1)::numeric * ? / ?))::double precision / 1000),
                g, repeat('0', 64), md5(g::text) || md5(g::text)
           FROM generate_series(?::bigint, ?::bigint) AS g`,
        [
          project.id,
          environment.id,
          users,
          users.length,
          team.id,
          BENCH_ACTIONS,
          BENCH_ACTIONS.length,
          t0,
          spanMs,
          rows,
          from,
          to,
        ],
      );
    });
    const rate = Math.round((to - first + 1) / ((Date.now() - started) / 1000));
    log(
      `data: ${to.toLocaleString()} / ${rows.toLocaleString()} rows (${rate.toLocaleString()} rows/s)`,
    );
  }
  for (const index of indexes) {
    const building = Date.now();
    await knex.transaction(async (trx) => {
      await trx.raw('SET LOCAL statement_timeout = 0');
      await trx.raw("SET LOCAL maintenance_work_mem = '512MB'");
      // pg_indexes shows a partitioned index as `ON ONLY`: build it on every partition.
      await trx.raw(index.indexdef.replace(' ON ONLY ', ' ON '));
    });
    log(`data: built ${index.indexname} in ${Math.round((Date.now() - building) / 1000)} s`);
  }
  await knex('activity_log_chain_heads')
    .insert({ project_id: project.id, last_seq: rows, last_hash: '0'.repeat(64) })
    .onConflict('project_id')
    .merge();
  await knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL statement_timeout = 0');
    await trx.raw('ANALYZE activity_logs');
  });
  log(
    `data: ${rows.toLocaleString()} rows ready in ${Math.round((Date.now() - started) / 1000)} s`,
  );
}
