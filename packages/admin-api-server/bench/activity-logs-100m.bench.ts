/**
 * Activity logs at scale (issue #23): list, filters, deep cursor walk and a streamed export over
 * the monthly-partitioned `activity_logs`, 100,000,000 rows by default. Opt-in:
 *
 *   BENCH_100M=1 flock /tmp/canopy-bench.lock pnpm --filter @canopy/admin-api-server bench
 *   BENCH_100M=1 BENCH_ROWS=10000000 flock /tmp/canopy-bench.lock pnpm --filter @canopy/admin-api-server bench
 *
 * Without BENCH_100M=1 it prints one line and exits (the default `pnpm bench` does not run it).
 * Rows are spread evenly over 24 months (24 partitions), 100 users, 10 actions, one environment;
 * generated in SQL (`generate_series`, 1,000,000 rows per statement) with the secondary indexes
 * dropped, then the indexes are rebuilt and the table analyzed. Generated once in its own schema
 * (BENCH_DATABASE_URL, default the local PostgreSQL, schema canopy_admin_api_bench_100m) and kept
 * for later runs; placeholder hashes, not a valid chain. Check `df -h` first: 100M rows take
 * about 40 GB with their indexes.
 *
 * For each query it prints the EXPLAIN (ANALYZE) plan, whether it is index scans only and how
 * many partitions the plan touches (pruned at plan time) and runs (the rest "never executed"),
 * and the median and p95 of 20 runs through the same code as the API. Then a cursor walk of
 * BENCH_WALK_PAGES pages (default 1,000) of 100 from deep in the data, and the export of one
 * month through HTTP (the in-process server): time to first byte, rows/s, and this process's
 * peak RSS while it streams.
 */
import { performance } from 'node:perf_hooks';
import { issueApplicationToken, type AdminApiServer } from '../src';
import { ensureActivityLogPartitions, listActivityLogPartitions } from '../src/internals';
import {
  activityLogQuery,
  listActivityLogPage,
  type ActivityLogFilters,
} from '../src/store/activity-log-queries';
import { BENCH_KEYS, benchProject, benchServer, loadActivityLogs, log } from './bench-data';
import { planReadsThroughIndexes } from './plan-check';

const ENABLED = process.env.BENCH_100M === '1';
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000_000);
const URL_ =
  process.env.BENCH_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test?schema=canopy_admin_api_bench_100m';
const WALK_PAGES = Number(process.env.BENCH_WALK_PAGES ?? 1000);
const KEYS = BENCH_KEYS;
const T0 = Date.parse('2024-01-01T00:00:00.000Z');
const MONTHS = 24;
const T1 = Date.UTC(2024, MONTHS, 1);

async function generate(server: AdminApiServer): Promise<void> {
  const knex = server.knex;
  const bench = await benchProject(knex);
  await ensureActivityLogPartitions(knex, { from: new Date(T0), monthsAhead: MONTHS - 1 });
  const head = await knex('activity_log_chain_heads')
    .where({ project_id: bench.project.id })
    .first('last_seq');
  const existing = Number(head?.last_seq ?? 0);
  if (existing >= ROWS) {
    log(`data: ${existing.toLocaleString()} activity logs already present`);
    return;
  }
  if (existing > 0) {
    throw new Error(
      `The bench schema holds ${existing.toLocaleString()} rows, fewer than ${ROWS.toLocaleString()}: drop the schema (or use another BENCH_DATABASE_URL) and run again.`,
    );
  }
  await loadActivityLogs(knex, bench, { from: 1, rows: ROWS, t0: T0, spanMs: T1 - T0 });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** The plan of a query, whether it is index scans only, and the partitions it touches and runs. */
async function explain(
  server: AdminApiServer,
  name: string,
  filters: ActivityLogFilters,
  partitions: number,
) {
  const sql = activityLogQuery(server.knex, filters).limit(101).toSQL();
  const plan = await server.knex.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql.sql}`, sql.bindings);
  const lines: string[] = plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
  log(`\n== ${name}: EXPLAIN plan`);
  for (const line of lines) log(`   ${line}`);
  const scans = lines.filter((line) => / on activity_logs_\w+/.test(line) && /Scan/.test(line));
  const touched = new Set(scans.map((line) => / on (activity_logs_\w+)/.exec(line)![1]));
  const ran = new Set(
    scans
      .filter((line) => !line.includes('never executed'))
      .map((line) => / on (activity_logs_\w+)/.exec(line)![1]),
  );
  const indexOnly = planReadsThroughIndexes(lines);
  log(
    `   index scans only: ${indexOnly ? 'yes' : 'NO'}; partitions in the plan: ${touched.size} of ${partitions}, executed: ${ran.size}`,
  );
  if (!indexOnly) process.exitCode = 1;
}

async function time(server: AdminApiServer, name: string, filters: ActivityLogFilters) {
  const runs: number[] = [];
  let rows = 0;
  for (let i = 0; i < 20; i += 1) {
    const started = performance.now();
    rows = (await listActivityLogPage(server.knex, filters, 100)).rows.length;
    runs.push(performance.now() - started);
  }
  runs.sort((a, b) => a - b);
  log(
    `   ${name}: ${rows} rows, median ${percentile(runs, 50).toFixed(2)} ms, p95 ${percentile(runs, 95).toFixed(2)} ms (20 runs)`,
  );
}

async function main(): Promise<void> {
  if (!ENABLED) {
    log('activity logs at scale: skipped (BENCH_100M=1 runs it; BENCH_ROWS sets the row count).');
    return;
  }
  const server = await benchServer(URL_, 4, { exports: { maxDurationSeconds: 3600 } });
  try {
    await generate(server);
    const knex = server.knex;
    const project = await knex('projects').where({ name: 'Bench' }).first();
    const environment = await knex('environments')
      .where({ project_id: project.id, name: 'Production' })
      .first();
    const user = await knex('users').where({ email: 'user7@bench.example' }).first();
    const partitions = (await listActivityLogPartitions(knex)).length;
    const rows = Number(
      (await knex('activity_log_chain_heads').where({ project_id: project.id }).first()).last_seq,
    );
    log(
      `\nactivity logs at scale: ${rows.toLocaleString()} rows in ${partitions} partitions (${MONTHS} months + default + ahead)`,
    );
    const base = { projectId: project.id, environmentId: environment.id, createdAt: {} };
    const range = { gte: '2025-03-10T00:00:00.000Z', lt: '2025-03-20T00:00:00.000Z' };
    const deep = { createdAt: new Date(T0 + (T1 - T0) * 0.2), id: '9223372036854775807' };
    const cases: [string, ActivityLogFilters][] = [
      ['first page', base],
      ['filter user', { ...base, userId: user.id }],
      ['filter action', { ...base, action: 'update' }],
      ['filter date range (10 days)', { ...base, createdAt: range }],
      [
        'filter user + action + date range',
        { ...base, userId: user.id, action: 'update', createdAt: range },
      ],
      ['deep cursor page (80% down)', { ...base, after: deep }],
      [
        'deep cursor page, user + action',
        { ...base, userId: user.id, action: 'update', after: deep },
      ],
    ];
    for (const [name, filters] of cases) await explain(server, name, filters, partitions);
    log("\n== list timings (the API's query, 100 rows a page)");
    for (const [name, filters] of cases) await time(server, name, filters);

    // A cursor walk from deep in the data, page after page.
    const pages: number[] = [];
    let after = deep;
    let walked = 0;
    for (let i = 0; i < WALK_PAGES; i += 1) {
      const started = performance.now();
      const page = await listActivityLogPage(knex, { ...base, after }, 100);
      pages.push(performance.now() - started);
      walked += page.rows.length;
      const last = page.rows.at(-1);
      if (!last || !page.hasMore) break;
      after = { createdAt: new Date(last.created_at), id: String(last.id) };
    }
    pages.sort((a, b) => a - b);
    const total = pages.reduce((sum, ms) => sum + ms, 0);
    log(
      `\n== cursor walk from 80% down: ${pages.length} pages, ${walked.toLocaleString()} rows, median ${percentile(pages, 50).toFixed(2)} ms, p95 ${percentile(pages, 95).toFixed(2)} ms, p99 ${percentile(pages, 99).toFixed(2)} ms a page, ${Math.round(walked / (total / 1000)).toLocaleString()} rows/s`,
    );

    // The export of one month, streamed over HTTP.
    const port = await server.listen(0, '127.0.0.1');
    const { token } = await issueApplicationToken(knex, KEYS, {
      project,
      userId: user.id,
      name: 'bench',
      scopes: ['activity_logs:read'],
      expiresAt: new Date(Date.now() + 3_600_000),
      viaSso: false,
    });
    const month = { gte: '2025-06-01T00:00:00.000Z', lt: '2025-07-01T00:00:00.000Z' };
    const exportUrl = `http://127.0.0.1:${port}/v1/project/Bench/environment/Production/activity-logs/export?createdAt.gte=${month.gte}&createdAt.lt=${month.lt}`;
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 100);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const response = await fetch(exportUrl, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    let firstByte = 0;
    let lines = 0;
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (firstByte === 0) firstByte = performance.now() - started;
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    log(
      `\n== export of one month (ndjson over HTTP, in-process server): ${lines.toLocaleString()} rows, ${(bytes / 1e6).toFixed(0)} MB, first byte after ${firstByte.toFixed(0)} ms, ${Math.round(lines / seconds).toLocaleString()} rows/s, RSS ${Math.round(rssBefore / 1e6)} MB before, peak ${Math.round(peak / 1e6)} MB`,
    );
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
