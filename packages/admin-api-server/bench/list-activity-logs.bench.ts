/**
 * Benchmark of the public API's activity-log list against a raw `pg` server running the same SQL.
 *
 *   flock /tmp/canopy-bench.lock pnpm --filter @canopy/admin-api-server bench
 *
 * 1,000,000 rows by default (BENCH_ROWS sets any count; the 100M-row figures are
 * bench/activity-logs-100m.bench.ts, run after this one with BENCH_100M=1). Three
 * processes are loaded in turn by the same autocannon run, 10 connections each (BENCH_CONNECTIONS):
 * the raw baseline (bench/raw-pg-server.mjs: node `http` + `pg`, no auth, no limit), then
 * `canopy-admin-api serve` (built from the sources) with its rate-limit counters in PostgreSQL,
 * then in Redis (CANOPY_REDIS_URL, default redis://127.0.0.1:6379/0; BENCH_REDIS=0 skips it).
 * It prints each one's req/s, the ratio to raw, the server process's CPU time per request (from
 * /proc: what the machine's load does not change much) and its peak RSS.
 *
 * BENCH_CPU_PROF=<dir> runs the server processes (raw and platform) with `node --cpu-prof` into that
 * directory.
 *
 * Before/after in one run: BENCH_BEFORE_TREE=<a checkout's packages/admin-api-server> adds that
 * version of the platform (built from its sources, limits in PostgreSQL) and a raw server of its
 * own to every round, on BENCH_BEFORE_DATABASE_URL (a schema that tree's own bench seeded: each
 * version migrates its own). Each platform's ratio is to the raw server on its schema, loaded in
 * the same round seconds apart, so the two ratios compare the versions, not two runs' machines.
 *
 * Uses its own schema (BENCH_DATABASE_URL, default the local PostgreSQL, schema canopy_admin_api_bench),
 * generated once with `generate_series` and kept for later runs. Not part of the test suite.
 * Generated rows carry placeholder hashes: they are not a valid hash chain (the integrity
 * endpoint would flag them); ingestion through the service, measured separately, is.
 */
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import {
  createEnvironment,
  createProject,
  insertActivityLogs,
  issueApplicationToken,
  type AdminApiServer,
} from '../src';
import { ensureActivityLogPartitions } from '../src/internals';
import { encodeTimeCursor } from '../src/store/cursor';
import { activityLogQuery } from '../src/store/activity-log-queries';
import { buildCliBundle } from '../test/helpers/cli-bundle';
import { BENCH_KEYS, benchProject, benchServer, loadActivityLogs, log } from './bench-data';
import { checkoutCode, listCase, SPAN_MS, T0, type ListCase } from './list-case';
import { planReadsThroughIndexes } from './plan-check';
import { startChild } from './serve-child';

const URL_ =
  process.env.BENCH_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test?schema=canopy_admin_api_bench';
const ROWS = Number(
  process.env.BENCH_100M === '1' ? 1_000_000 : (process.env.BENCH_ROWS ?? 1_000_000),
);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const KEYS = BENCH_KEYS;
const BEFORE_TREE = process.env.BENCH_BEFORE_TREE
  ? resolve(process.env.BENCH_BEFORE_TREE)
  : undefined;
const BEFORE_URL =
  process.env.BENCH_BEFORE_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test?schema=canopy_admin_api_bench_before';

async function generate(server: AdminApiServer): Promise<void> {
  const knex = server.knex;
  const bench = await benchProject(knex);
  const existing = Number(
    (await knex('activity_logs').where({ project_id: bench.project.id }).count({ n: '*' }))[0]!.n,
  );
  if (existing >= ROWS) {
    log(`data: ${existing.toLocaleString()} activity logs already present`);
    return;
  }
  // The monthly partitions of the generated year (activity_logs is partitioned by month).
  await ensureActivityLogPartitions(knex, { from: new Date(T0), monthsAhead: 12 });
  await loadActivityLogs(knex, bench, { from: existing + 1, rows: ROWS, t0: T0, spanMs: SPAN_MS });
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

/** Peak resident set size of a process while `during` runs, in MB (from /proc). */
async function peakRss<T>(pid: number, during: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // the process is gone
    }
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await during();
    sample();
    return [result, peak];
  } finally {
    clearInterval(timer);
  }
}

/** CPU time a process has used (user + system), in milliseconds, from /proc; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** The two pages the bench loads: their paths, and their SQL for the raw server. */
function listCases(
  knex: Knex,
  query: typeof activityLogQuery,
  request: Pick<ListCase, 'filters' | 'path' | 'cursor' | 'deepRow'>,
) {
  const { filters, path, cursor, deepRow } = request;
  return [
    {
      name: 'first page',
      key: 'first',
      path,
      sql: query(knex, filters).limit(101).toSQL(),
    },
    {
      name: 'deep cursor page',
      key: 'deep',
      path: `${path}&cursor=${cursor}`,
      sql: query(knex, {
        ...filters,
        after: { createdAt: deepRow.created_at, id: String(deepRow.id) },
      })
        .limit(101)
        .toSQL(),
    },
  ];
}

/** The raw baseline server, answering `cases`' SQL on the schema of `databaseUrl`. */
function startRawServer(
  databaseUrl: string,
  cases: ReturnType<typeof listCases>,
  profile: string[],
): ReturnType<typeof startChild> {
  return startChild(process.execPath, [...profile, join(__dirname, 'raw-pg-server.mjs')], {
    PATH: process.env.PATH,
    RAW_DATABASE_URL: databaseUrl.replace(/\?.*$/, ''),
    RAW_SCHEMA: new URL(databaseUrl).searchParams.get('schema') ?? undefined,
    RAW_POOL_SIZE: String(CONNECTIONS),
    RAW_QUERIES: JSON.stringify(Object.fromEntries(cases.map((c) => [c.key, c.sql.toNative()]))),
  });
}

/** Each page's path on the raw server: its key. */
function rawPaths(cases: ReturnType<typeof listCases>): Record<string, string> {
  return Object.fromEntries(cases.map((c) => [c.key, `/${c.key}`]));
}

/** The environment of a `serve` process under load, on `databaseUrl`. */
function platformEnv(databaseUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(CONNECTIONS),
    PORT: '0',
    HOST: '127.0.0.1',
    CANOPY_TOKEN_SIGNING_KEYS: `${KEYS[0]!.id}:${KEYS[0]!.secret}`,
    // Limits that never refuse during the run, so every request is still charged.
    RATE_LIMIT_POINTS: '1000000000',
    RATE_LIMIT_DURATION_SECONDS: '3600',
    NODE_ENV: 'production',
    ...extra,
  };
}

interface Target {
  name: string;
  process: ReturnType<typeof startChild>;
  /** The path of each page on this server. */
  paths: Record<string, string>;
  headers: Record<string, string>;
  /** The index of the raw server this one's ratio is to (none for a raw server). */
  raw?: number;
}

/**
 * The BENCH_BEFORE_TREE version ({@link checkoutCode}: its own code issues the token and writes
 * the cursor and SQL on its own schema), bundled with its own tsup, with a raw server of its own.
 */
async function beforeTargets(
  first: number,
  profile: string[],
  closers: { stop(): Promise<void> }[],
): Promise<Target[]> {
  const tree = BEFORE_TREE!;
  const checkout = checkoutCode(tree);
  const server = await checkout.benchServer(BEFORE_URL, 2);
  closers.push({ stop: () => server.close() });
  const request = await listCase(server.knex, checkout.keys, checkout.code, 'bench-before');
  const cases = listCases(server.knex, checkout.code.activityLogQuery, request);
  const raw = startRawServer(BEFORE_URL, cases, profile);
  closers.push(raw);
  const bundle = buildCliBundle(tree);
  closers.push({ stop: async () => rmSync(bundle, { recursive: true, force: true }) });
  const platform = startChild(
    process.execPath,
    [...profile, join(bundle, 'cli.js'), 'serve'],
    // The bundle resolves its dependencies from the other tree.
    platformEnv(BEFORE_URL, {
      // Its tokens are signed with its own bench keys.
      CANOPY_TOKEN_SIGNING_KEYS: `${checkout.keys[0]!.id}:${checkout.keys[0]!.secret}`,
      NODE_PATH: join(tree, 'node_modules'),
    }),
  );
  closers.push(platform);
  const label = basename(dirname(dirname(tree)));
  return [
    {
      name: `raw pg server (${label})`,
      process: raw,
      paths: rawPaths(cases),
      headers: {},
    },
    {
      name: `platform (${label})`,
      process: platform,
      paths: Object.fromEntries(cases.map((c) => [c.key, c.path])),
      headers: { Authorization: `Bearer ${request.token}` },
      raw: first,
    },
  ];
}

async function main(): Promise<void> {
  const server = await benchServer(URL_, 2, {
    rateLimit: { points: 1, durationSeconds: 1, burstPoints: 0, burstDurationSeconds: 1 },
  });
  const children: { stop(): Promise<void> }[] = [];
  let bundle: string | undefined;
  try {
    await generate(server);
    if (process.env.BENCH_INGESTION !== '0') await measureIngestion(server);
    const { token, userId, since, filters, matching, deepOffset, deepRow, path, cursor } =
      await listCase(
        server.knex,
        KEYS,
        { issueApplicationToken, activityLogQuery, encodeTimeCursor },
        'bench',
      );
    log(
      `query: userId=${userId} action=update createdAt.gte=${since}: ${matching.toLocaleString()} matching rows; deep page after row ${deepOffset.toLocaleString()}`,
    );

    const cases = listCases(server.knex, activityLogQuery, { filters, path, cursor, deepRow });
    for (const c of cases) {
      const plan = await server.knex.raw(`EXPLAIN (ANALYZE, BUFFERS) ${c.sql.sql}`, c.sql.bindings);
      const lines: string[] = plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
      log(`\n== ${c.name}: EXPLAIN plan`);
      for (const line of lines) log(`   ${line}`);
      // Seq scans of empty or nearly empty partitions (the months ahead) are fine.
      const usesIndex = planReadsThroughIndexes(lines);
      log(`   uses an index: ${usesIndex ? 'yes' : 'NO'}`);
      if (!usesIndex) process.exitCode = 1;
    }

    // The processes under load: the raw baseline, then the platform with each limiter store.
    // `node --cpu-prof` writes each server process's profile when it exits (BENCH_CPU_PROF).
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
    const raw = startRawServer(URL_, cases, profile);
    children.push(raw);
    bundle = buildCliBundle();
    const paths = Object.fromEntries(cases.map((c) => [c.key, c.path]));
    const auth = { Authorization: `Bearer ${token}` };
    const pgLimited = startChild(
      process.execPath,
      [...profile, join(bundle, 'cli.js'), 'serve'],
      platformEnv(URL_, {}),
    );
    children.push(pgLimited);
    const targets: Target[] = [
      {
        name: 'raw pg server',
        process: raw,
        paths: rawPaths(cases),
        headers: {},
      },
      { name: 'platform, limits in PostgreSQL', process: pgLimited, paths, headers: auth, raw: 0 },
    ];
    if (process.env.BENCH_REDIS !== '0') {
      const redisLimited = startChild(
        process.execPath,
        [...profile, join(bundle, 'cli.js'), 'serve'],
        platformEnv(URL_, {
          CANOPY_REDIS_URL: REDIS_URL,
          CANOPY_REDIS_KEY_PREFIX: `canopy-bench:${Date.now()}:`,
        }),
      );
      children.push(redisLimited);
      targets.push({
        name: 'platform, limits in Redis',
        process: redisLimited,
        paths,
        headers: auth,
        raw: 0,
      });
    }
    if (BEFORE_TREE) targets.push(...(await beforeTargets(targets.length, profile, children)));
    const ports = await Promise.all(targets.map((t) => t.process.port));

    for (const c of cases) {
      log(
        `\n== ${c.name}: ${CONNECTIONS} connections, ${DURATION} s each in ${ROUNDS} interleaved rounds`,
      );
      const urls = targets.map(
        (target, index) => `http://127.0.0.1:${ports[index]}${target.paths[c.key]}`,
      );
      // Warm up (JIT, pools, prepared plans) before measuring.
      for (const [index, target] of targets.entries()) {
        await autocannon({
          url: urls[index]!,
          connections: CONNECTIONS,
          duration: 2,
          headers: target.headers,
        });
      }
      // The machine's load drifts: each round loads every target in turn for a slice of the
      // duration, so that each ratio compares runs seconds apart, not minutes.
      const totals = targets.map(() => ({
        requests: 0,
        seconds: 0,
        p50: [] as number[],
        p99: [] as number[],
        rss: 0,
        cpuMs: 0,
        non2xx: 0,
        errors: 0,
        ratios: [] as number[],
      }));
      for (let round = 0; round < ROUNDS; round += 1) {
        const rates: number[] = [];
        for (const [index, target] of targets.entries()) {
          const pid = target.process.child.pid!;
          const cpuBefore = cpuMs(pid);
          const [result, rss] = await peakRss(pid, () =>
            autocannon({
              // A worker thread generates the load, so it does not share this process's event loop.
              workers: 1,
              url: urls[index]!,
              connections: CONNECTIONS,
              duration: DURATION / ROUNDS,
              headers: target.headers,
            }),
          );
          const total = totals[index]!;
          total.cpuMs += cpuMs(pid) - cpuBefore;
          total.requests += result.requests.total;
          total.seconds += result.duration;
          total.p50.push(result.latency.p50);
          total.p99.push(result.latency.p99);
          total.rss = Math.max(total.rss, rss);
          total.non2xx += result.non2xx;
          total.errors += result.errors;
          rates[index] = result.requests.total / result.duration;
        }
        for (const [index, target] of targets.entries()) {
          if (target.raw !== undefined)
            totals[index]!.ratios.push(rates[index]! / rates[target.raw]!);
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
      const perSecondOf = (index: number) => totals[index]!.requests / totals[index]!.seconds;
      for (const [index, target] of targets.entries()) {
        const total = totals[index]!;
        const perSecond = perSecondOf(index);
        const ratio =
          target.raw === undefined
            ? ''
            : `, ${(perSecond / perSecondOf(target.raw)).toFixed(2)}x raw (rounds ${total.ratios.map((r) => r.toFixed(2)).join(', ')})`;
        log(
          `   ${target.name.padEnd(32)} ${Math.round(perSecond).toLocaleString().padStart(6)} req/s${ratio}, p50 ${median(total.p50)} ms, p99 ${median(total.p99)} ms (medians of rounds), server CPU ${(total.cpuMs / total.requests).toFixed(2)} ms/request, peak RSS ${Math.round(total.rss)} MB, non-2xx ${total.non2xx}, errors ${total.errors}`,
        );
        if (total.non2xx > 0 || total.errors > 0) process.exitCode = 1;
      }
      log(
        `   load average (1, 5, 15 min): ${loadavg()
          .map((n) => n.toFixed(2))
          .join(', ')}`,
      );
    }
  } finally {
    for (const child of children) await child.stop();
    if (bundle) rmSync(bundle, { recursive: true, force: true });
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
