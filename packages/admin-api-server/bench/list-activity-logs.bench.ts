/**
 * Benchmark of the activity-log list on 10,000,000 rows (BENCH_ROWS to change it).
 *
 *   pnpm --filter @canopy/admin-api-server bench
 *
 * Uses its own schema (BENCH_DATABASE_URL, default the local PostgreSQL, schema canopy_admin_api_bench),
 * generated once with `generate_series` and kept for later runs. Not part of the test suite.
 * Generated rows carry placeholder hashes: they are not a valid hash chain (the integrity
 * endpoint would flag them); ingestion through the service, measured separately, is.
 */
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import {
  addProjectMember,
  createAdminApiServer,
  createEnvironment,
  createProject,
  createUser,
  insertActivityLogs,
  issueApplicationToken,
  type AdminApiServer,
} from '../src';
import { encodeTimeCursor } from '../src/store/cursor';
import { activityLogQuery } from '../src/store/activity-log-queries';

const URL_ =
  process.env.BENCH_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test?schema=canopy_admin_api_bench';
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const USERS = 100;
const ACTIONS = [
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
const KEYS = [{ id: 'bench', secret: 'benchmark-only-secret-0123456789abcdef' }];
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const SPAN_MS = 365 * 86_400_000;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function generate(server: AdminApiServer): Promise<void> {
  const knex = server.knex;
  let project = await knex('projects').where({ name: 'Bench' }).first();
  if (!project) {
    project = await createProject(knex, { name: 'Bench' });
    await createEnvironment(knex, { projectId: project.id, name: 'Production' });
    for (let i = 1; i <= USERS; i += 1) {
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
  const existing = Number(
    (await knex('activity_logs').where({ project_id: project.id }).count({ n: '*' }))[0]!.n,
  );
  if (existing >= ROWS) {
    log(`data: ${existing.toLocaleString()} activity logs already present`);
    return;
  }
  // Bulk load without the secondary indexes, then rebuild them from their own definitions.
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
  for (let from = existing + 1; from <= ROWS; from += chunk) {
    const to = Math.min(from + chunk - 1, ROWS);
    await knex.transaction(async (trx) => {
      // Generated ids are known to exist: skip the per-row foreign-key triggers, and the timeout.
      await trx.raw('SET LOCAL statement_timeout = 0');
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx.raw(
        `INSERT INTO activity_logs (project_id, environment_id, user_id, team_id, collection_name, type, action,
         label, record_ids, created_at, chain_seq, previous_hash, hash)
       SELECT ?, ?, (?::int[])[1 + (g % ?)], ?, 'orders',
              CASE WHEN g % 3 = 0 THEN 'write' ELSE 'read' END,
              (?::text[])[1 + ((g / 7) % ?)],
              'bench', ARRAY[(g % 100000)::text],
              to_timestamp((? + (g::bigint * ? / ?))::double precision / 1000),
              g, repeat('0', 64), md5(g::text) || md5(g::text)
       FROM generate_series(?::bigint, ?::bigint) AS g`,
        [
          project.id,
          environment.id,
          users,
          users.length,
          team.id,
          ACTIONS,
          ACTIONS.length,
          T0,
          SPAN_MS,
          ROWS,
          from,
          to,
        ],
      );
    });
    const rate = Math.round((to - existing) / ((Date.now() - started) / 1000));
    log(
      `data: ${to.toLocaleString()} / ${ROWS.toLocaleString()} rows (${rate.toLocaleString()} rows/s)`,
    );
  }
  for (const index of indexes) {
    const building = Date.now();
    await knex.transaction(async (trx) => {
      await trx.raw('SET LOCAL statement_timeout = 0');
      await trx.raw(index.indexdef);
    });
    log(`data: rebuilt ${index.indexname} in ${Math.round((Date.now() - building) / 1000)} s`);
  }
  await knex('activity_log_chain_heads')
    .insert({ project_id: project.id, last_seq: ROWS, last_hash: '0'.repeat(64) })
    .onConflict('project_id')
    .merge();
  await knex.raw('ANALYZE activity_logs');
}

async function measureIngestion(server: AdminApiServer): Promise<void> {
  const knex = server.knex;
  const name = `Ingest${Date.now()}`;
  const project = await createProject(knex, { name });
  const environment = await createEnvironment(knex, { projectId: project.id, name: 'Production' });
  const team = await knex('teams').where({ project_id: project.id }).first();
  const user = await knex('users').first('id');
  const total = 20_000;
  const batch = 1_000;
  const started = process.hrtime.bigint();
  for (let done = 0; done < total; done += batch) {
    await insertActivityLogs(
      knex,
      project.id,
      Array.from({ length: batch }, (_, i) => ({
        environmentId: environment.id,
        userId: user.id,
        teamId: team.id,
        type: 'write' as const,
        action: 'update' as const,
        collectionName: 'orders',
        recordIds: [String(done + i)],
      })),
    );
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  log(
    `ingestion: ${total.toLocaleString()} hash-chained logs in batches of ${batch}: ${Math.round(total / seconds).toLocaleString()} rows/s`,
  );
  await knex('projects').where({ id: project.id }).delete();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function rawSql(sql: string, bindings: readonly Knex.Value[], server: AdminApiServer) {
  const latencies: number[] = [];
  const deadline = Date.now() + DURATION * 1000;
  const workers = Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < deadline) {
      const started = process.hrtime.bigint();
      await server.knex.raw(sql, bindings);
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  });
  await Promise.all(workers);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / DURATION,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function main(): Promise<void> {
  const server = await createAdminApiServer({
    database: { kind: 'url', url: URL_, poolSize: CONNECTIONS + 2 },
    port: 0,
    host: '127.0.0.1',
    signingKeys: KEYS,
    rateLimit: {
      points: 1_000_000_000,
      durationSeconds: 3600,
      burstPoints: 0,
      burstDurationSeconds: 3600,
    },
    defaultTokenLifetimeDays: 1,
    logLevel: 'silent',
    trustProxy: false,
  });
  try {
    await generate(server);
    await measureIngestion(server);
    const project = await server.knex('projects').where({ name: 'Bench' }).first();
    const environment = await server
      .knex('environments')
      .where({ project_id: project.id, name: 'Production' })
      .first();
    const user = await server.knex('users').where({ email: 'user7@bench.example' }).first();
    const { token } = await issueApplicationToken(server.knex, KEYS, {
      project,
      userId: user.id,
      name: 'bench',
      scopes: ['activity_logs:read'],
      expiresAt: new Date(Date.now() + 3_600_000),
      viaSso: false,
    });
    const port = await server.listen();
    const since = new Date(T0 + SPAN_MS / 4).toISOString();
    const filters = {
      projectId: project.id,
      environmentId: environment.id,
      userId: user.id,
      action: 'update',
      createdAt: { gte: since },
    };
    const matching = Number(
      (
        await activityLogQuery(server.knex, filters).clearSelect().clearOrder().count({ n: '*' })
      )[0]!.n,
    );
    const deepOffset = Math.max(0, Math.min(matching - 100, Math.floor(matching * 0.8)));
    const deepRow = await activityLogQuery(server.knex, filters).offset(deepOffset).first();
    const cursor = encodeTimeCursor({ createdAt: deepRow.created_at, id: String(deepRow.id) });
    log(
      `query: userId=${user.id} action=update createdAt.gte=${since}: ${matching.toLocaleString()} matching rows; deep page after row ${deepOffset.toLocaleString()}`,
    );

    const base = `http://127.0.0.1:${port}/v1/project/Bench/environment/Production/activity-logs?limit=100&userId=${user.id}&action=update&createdAt.gte=${encodeURIComponent(since)}`;
    const cases = [
      {
        name: 'first page',
        url: base,
        sql: activityLogQuery(server.knex, filters).limit(101).toSQL(),
      },
      {
        name: 'deep cursor page',
        url: `${base}&cursor=${cursor}`,
        sql: activityLogQuery(server.knex, {
          ...filters,
          after: { createdAt: deepRow.created_at, id: String(deepRow.id) },
        })
          .limit(101)
          .toSQL(),
      },
    ];
    for (const c of cases) {
      const plan = await server.knex.raw(`EXPLAIN (ANALYZE, BUFFERS) ${c.sql.sql}`, c.sql.bindings);
      const lines: string[] = plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
      log(`\n== ${c.name}: EXPLAIN plan`);
      for (const line of lines) log(`   ${line}`);
      const planText = lines.join('\n');
      const usesIndex =
        /Index (Only )?Scan/.test(planText) && !/Seq Scan on activity_logs/.test(planText);
      log(`   uses an index: ${usesIndex ? 'yes' : 'NO'}`);
      if (!usesIndex) process.exitCode = 1;

      const http = await autocannon({
        // A worker thread generates the load, so it does not share the server's event loop.
        workers: 1,
        url: c.url,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: { Authorization: `Bearer ${token}` },
      });
      const sql = await rawSql(c.sql.sql, c.sql.bindings, server);
      log(`== ${c.name} (${CONNECTIONS} connections, ${DURATION} s)`);
      log(
        `   HTTP over loopback: ${Math.round(http.requests.average).toLocaleString()} req/s, p50 ${http.latency.p50} ms, p99 ${http.latency.p99} ms, non-2xx ${http.non2xx}, errors ${http.errors}`,
      );
      log(
        `   raw SQL:            ${Math.round(sql.perSecond).toLocaleString()} queries/s, p50 ${sql.p50.toFixed(2)} ms, p99 ${sql.p99.toFixed(2)} ms`,
      );
      if (http.non2xx > 0 || http.errors > 0) process.exitCode = 1;
    }
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
