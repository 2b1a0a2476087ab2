// Profiles the benchmark's list or count (or the same SQL through raw pg) in a loop, after a
// warm-up, and writes a V8 CPU profile of the loop only:
//   flock /tmp/canopy-bench.lock npx tsx bench/profile.ts list 3000 /tmp/list.cpuprofile
//   npx tsx bench/profile-summary.ts /tmp/list.cpuprofile
// Operations: list, count, raw-list, raw-count. Needs the benchmark's schema (seeded by the
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
    'raw-count': () =>
      raw.query(`SELECT COUNT(*) FROM ${SCHEMA}.orders WHERE status = $1`, ['paid']),
  };
  const run = runs[operation];
  if (!run)
    throw new Error(`Unknown operation '${operation}': use ${Object.keys(runs).join(', ')}.`);
  for (let index = 0; index < 200; index += 1) await run();

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const start = process.cpuUsage();
  for (let index = 0; index < Number(iterations); index += 1) await run();
  const used = process.cpuUsage(start);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (output) writeFileSync(output, JSON.stringify(profile));
  console.log(
    `${operation}: ${iterations} runs, ${((used.user + used.system) / Number(iterations)).toFixed(0)} µs CPU per run (profiler on)`,
  );
  await dataSource.close();
  await raw.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
