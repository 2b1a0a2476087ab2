// Profiles the benchmark's list or count (or the same SQL through raw pg) in a loop, after a
// warm-up, and writes a V8 CPU profile of the loop only:
//   flock /tmp/canopy-bench.lock npx tsx bench/profile.ts list 3000 /tmp/list.cpuprofile
//   (without the file: CPU time per run only, no profiler; `list,raw-list` interleaves both)
//   npx tsx bench/profile-summary.ts /tmp/list.cpuprofile
// Operations: list, count, raw-list, raw-list-same-sql, knex-list-same-sql,
// raw-count. Needs the benchmark's schema (seeded by the
// benchmark).
import { Aggregation, Filter, Page, PaginatedFilter, Projection } from '@canopy/agent-core';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import pg from 'pg';
import { openSqlDataSource } from '../src/index';
import { BASE_URL, benchCaller, withSchema } from './setup';

const SCHEMA = 'canopy_bench';

async function main(): Promise<void> {
  const [operation = 'list', iterations = '2000', output] = process.argv.slice(2);
  const dataSource = await openSqlDataSource(withSchema(SCHEMA));
  const raw = new pg.Pool({ connectionString: BASE_URL, max: 4 });
  const orders = dataSource.getCollection('orders');
  const listFilter = new PaginatedFilter({
    conditionTree: { field: 'status', operator: 'Equal', value: 'paid' },
    sort: [{ field: 'placed_at', ascending: false }],
    page: new Page(0, 15),
  });
  const projection = new Projection('id', 'amount', 'placed_at', 'customer:name');
  const countFilter = new Filter({
    conditionTree: { field: 'status', operator: 'Equal', value: 'paid' },
  });
  const count = new Aggregation({ operation: 'Count' });
  const runs: Record<string, () => Promise<unknown>> = {
    list: () => orders.list(benchCaller, listFilter, projection),
    count: () => orders.aggregate(benchCaller, countFilter, count),
    'raw-list': () =>
      raw.query(
        `SELECT o.id, o.amount, o.placed_at, c.id AS cid, c.name FROM ${SCHEMA}.orders o
         LEFT JOIN ${SCHEMA}.customers c ON c.id = o.customer_id
         WHERE o.status = $1 ORDER BY o.placed_at DESC LIMIT 15`,
        ['paid'],
      ),
    // The SQL text the data source sends for the list, through raw pg.
    'raw-list-same-sql': () =>
      raw.query(
        `select "orders"."id" as "c0", "orders"."amount" as "c1", "orders"."placed_at" as "c2", "__j1"."name" as "c3", "__j1"."id" as "r4" from "${SCHEMA}"."orders" left join "${SCHEMA}"."customers" as "__j1" on "__j1"."id" = "orders"."customer_id" where ("orders"."status" = $1) order by "orders"."placed_at" desc limit $2`,
        ['paid', 15],
      ),
    // The same SQL through the data source's knex (pool, runner, connection), without our layer.
    'knex-list-same-sql': () =>
      dataSource.knex.raw(
        `select "orders"."id" as "c0", "orders"."amount" as "c1", "orders"."placed_at" as "c2", "__j1"."name" as "c3", "__j1"."id" as "r4" from "${SCHEMA}"."orders" left join "${SCHEMA}"."customers" as "__j1" on "__j1"."id" = "orders"."customer_id" where ("orders"."status" = ?) order by "orders"."placed_at" desc limit ?`,
        ['paid', 15],
      ),
    'knex-count-same-sql': () =>
      dataSource.knex.raw(
        `select COUNT(*) as "value" from "${SCHEMA}"."orders" where ("orders"."status" = ?)`,
        ['paid'],
      ),
    'raw-count-same-sql': () =>
      raw.query(
        `select COUNT(*) as "value" from "${SCHEMA}"."orders" where ("orders"."status" = $1)`,
        ['paid'],
      ),
    'raw-count': () =>
      raw.query(`SELECT COUNT(*) FROM ${SCHEMA}.orders WHERE status = $1`, ['paid']),
  };
  const names = operation.split(',');
  for (const name of names) {
    if (!runs[name]) {
      throw new Error(`Unknown operation '${name}': use ${Object.keys(runs).join(', ')}.`);
    }
  }
  const selected = names.map((name) => runs[name] as () => Promise<unknown>);
  for (let index = 0; index < 200; index += 1) for (const run of selected) await run();

  // Without an output file, only the CPU time is measured (no profiler overhead); several
  // operations run interleaved (round robin), so that other load falls on all of them alike.
  const session = output ? new Session() : undefined;
  session?.connect();
  await session?.post('Profiler.enable');
  await session?.post('Profiler.setSamplingInterval', { interval: 100 });
  await session?.post('Profiler.start');
  const cpu = selected.map(() => 0);
  const wall = selected.map((): number[] => []);
  for (let index = 0; index < Number(iterations); index += 1) {
    for (let which = 0; which < selected.length; which += 1) {
      const start = process.cpuUsage();
      const began = process.hrtime.bigint();
      await (selected[which] as () => Promise<unknown>)();
      wall[which]?.push(Number(process.hrtime.bigint() - began) / 1e6);
      const used = process.cpuUsage(start);
      cpu[which] = (cpu[which] as number) + used.user + used.system;
    }
  }
  if (session && output) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(output, JSON.stringify(profile));
  }
  names.forEach((name, which) => {
    const micros = (cpu[which] as number) / Number(iterations);
    const sorted = (wall[which] as number[]).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    console.log(
      `${name}: ${iterations} runs, ${micros.toFixed(0)} µs CPU per run, median ${median.toFixed(2)} ms${output ? ' (profiler on)' : ''}`,
    );
  });
  await dataSource.close();
  await raw.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
