// Benchmark of the SQL data source against hand-written SQL run with `pg` directly, on a
// PostgreSQL with 1,000,000 orders (PG_URL, default 127.0.0.1:5432/test), plus the time to
// introspect a schema of 500 tables linked by foreign keys.
//   flock /tmp/canopy-bench.lock pnpm --filter @canopy/datasource-sql bench
// Each case runs the data source (A) and raw pg (B) alternately, A/B then B/A, after a warm-up,
// so that load from other processes falls on both sides alike; it reports the median and p90
// wall time of each side, the ratio of the medians, and the CPU time of this Node process per
// query (process.cpuUsage), which other load hardly changes. BENCH_RUNS sets the number of
// runs of the fast cases (list, count), BENCH_SLOW_RUNS that of the monthly aggregation.
import { Aggregation, Filter, Page, PaginatedFilter, Projection } from '@canopy/agent-core';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openSqlDataSource } from '../src/index';
import { BASE_URL, benchCaller as caller, withSchema } from './setup';

const SCHEMA = 'canopy_bench';
const WIDE_SCHEMA = 'canopy_bench_500';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 400);
const SLOW_RUNS = Number(process.env.BENCH_SLOW_RUNS ?? 30);
/** Warm-up pairs of the list (JIT, pool, caches); the count takes 20 at most, the monthly sum 3. */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 200);

async function seed(client: pg.Client): Promise<void> {
  const { rows } = await client.query(
    `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'orders'`,
    [SCHEMA],
  );
  if (rows[0].n === 1) {
    const count = await client.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.orders`);
    if (count.rows[0].n === ORDERS) return;
  }
  console.log(`seeding ${ORDERS} orders in schema ${SCHEMA}…`);
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
  await client.query(`
    CREATE TYPE ${SCHEMA}.order_status AS ENUM ('pending', 'paid', 'shipped', 'cancelled');
    CREATE TABLE ${SCHEMA}.customers (id serial PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE);
    CREATE TABLE ${SCHEMA}.orders (
      id serial PRIMARY KEY,
      customer_id integer NOT NULL REFERENCES ${SCHEMA}.customers(id),
      status ${SCHEMA}.order_status NOT NULL,
      amount numeric(12,2) NOT NULL,
      placed_at timestamptz NOT NULL);
    INSERT INTO ${SCHEMA}.customers (name, email)
      SELECT 'Customer ' || i, 'customer' || i || '@example.com' FROM generate_series(1, 10000) i;
    INSERT INTO ${SCHEMA}.orders (customer_id, status, amount, placed_at)
      SELECT 1 + (i % 10000), (ARRAY['pending','paid','shipped','cancelled'])[1 + i % 4]::${SCHEMA}.order_status,
             (i % 1000) / 10.0, timestamptz '2023-01-01' + (i % 730) * interval '1 day' + (i % 1440) * interval '1 minute'
      FROM generate_series(1, ${ORDERS}) i;
    CREATE INDEX ON ${SCHEMA}.orders (status, placed_at DESC);
    CREATE INDEX ON ${SCHEMA}.orders (customer_id);
    ANALYZE ${SCHEMA}.customers; ANALYZE ${SCHEMA}.orders;`);
}

async function createWideSchema(client: pg.Client): Promise<void> {
  const statements = [
    `DROP SCHEMA IF EXISTS ${WIDE_SCHEMA} CASCADE`,
    `CREATE SCHEMA ${WIDE_SCHEMA}`,
  ];
  for (let index = 0; index < 500; index += 1) {
    const reference =
      index === 0
        ? ''
        : `, parent_id integer REFERENCES ${WIDE_SCHEMA}.t${index - 1}(id), owner_id integer REFERENCES ${WIDE_SCHEMA}.t0(id)`;
    statements.push(
      `CREATE TABLE ${WIDE_SCHEMA}.t${index} (id serial PRIMARY KEY, name text, created_at timestamptz${reference})`,
    );
  }
  await client.query(statements.join(';\n'));
}

/** The value below which `fraction` of the samples fall (nearest rank). */
function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] as number;
}

interface Side {
  wall: number[];
  cpuMicros: number;
}

async function measure(run: () => Promise<unknown>, side: Side): Promise<void> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await run();
  side.wall.push(Number(process.hrtime.bigint() - start) / 1e6);
  const used = process.cpuUsage(cpu);
  side.cpuMicros += used.user + used.system;
}

/** Both sides, alternated A/B then B/A per iteration after a warm-up. */
async function compare(
  ours: () => Promise<unknown>,
  theirs: () => Promise<unknown>,
  runs: number,
  warmUp: number,
): Promise<[Side, Side]> {
  for (let warm = 0; warm < warmUp; warm += 1) {
    await ours();
    await theirs();
  }
  const mine: Side = { wall: [], cpuMicros: 0 };
  const reference: Side = { wall: [], cpuMicros: 0 };
  for (let index = 0; index < runs; index += 1) {
    if (index % 2 === 0) {
      await measure(ours, mine);
      await measure(theirs, reference);
    } else {
      await measure(theirs, reference);
      await measure(ours, mine);
    }
  }
  return [mine, reference];
}

const ms = (value: number) => `${value.toFixed(2)}`;

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  try {
    await seed(admin);
    await createWideSchema(admin);
  } finally {
    await admin.end();
  }

  const raw = new pg.Pool({ connectionString: BASE_URL, max: 4 });
  const dataSource = await openSqlDataSource(withSchema(SCHEMA));
  const orders = dataSource.getCollection('orders');
  let roundTrips = 0;
  dataSource.knex.on('query', () => (roundTrips += 1));

  const listFilter = new PaginatedFilter({
    conditionTree: { field: 'status', operator: 'Equal', value: 'paid' },
    sort: [{ field: 'placed_at', ascending: false }],
    page: new Page(0, 15),
  });
  const projection = new Projection('id', 'amount', 'placed_at', 'customer:name');
  const countFilter = new Filter({
    conditionTree: { field: 'status', operator: 'Equal', value: 'paid' },
  });

  const cases: Array<[string, () => Promise<unknown>, () => Promise<unknown>, number, number]> = [
    [
      'list (15, ManyToOne projected, filter, sort)',
      () => orders.list(caller, listFilter, projection),
      () =>
        raw.query(
          `SELECT o.id, o.amount, o.placed_at, c.id AS cid, c.name FROM ${SCHEMA}.orders o
           LEFT JOIN ${SCHEMA}.customers c ON c.id = o.customer_id
           WHERE o.status = $1 ORDER BY o.placed_at DESC LIMIT 15`,
          ['paid'],
        ),
      RUNS,
      WARM_UP,
    ],
    [
      'count',
      () => orders.aggregate(caller, countFilter, new Aggregation({ operation: 'Count' })),
      () => raw.query(`SELECT COUNT(*) FROM ${SCHEMA}.orders WHERE status = $1`, ['paid']),
      RUNS,
      // A count takes tens of milliseconds: fewer warm-up pairs.
      Math.min(WARM_UP, 20),
    ],
    [
      'monthly sum (Europe/Paris)',
      () =>
        orders.aggregate(
          caller,
          new Filter(),
          new Aggregation({
            operation: 'Sum',
            field: 'amount',
            groups: [{ field: 'placed_at', operation: 'Month' }],
          }),
        ),
      () =>
        raw.query(
          `SELECT SUM(amount) AS value, TO_CHAR(DATE_TRUNC('month', placed_at AT TIME ZONE $1), 'YYYY-MM-DD') AS g
           FROM ${SCHEMA}.orders GROUP BY 2 ORDER BY 1 DESC NULLS LAST`,
          ['Europe/Paris'],
        ),
      SLOW_RUNS,
      3,
    ],
  ];

  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(
    `\n${new Date().toISOString()}, Node ${process.version}, ${ORDERS} orders; ` +
      `A/B interleaved after warm-up pairs (${WARM_UP} list, ${Math.min(WARM_UP, 20)} count, 3 monthly); load average ${load()}\n`,
  );
  console.log(
    'case'.padEnd(46),
    'runs'.padStart(5),
    'ours med/p90 ms'.padStart(17),
    'raw med/p90 ms'.padStart(16),
    'ratio'.padStart(7),
    'CPU/query ours/raw µs'.padStart(22),
    'CPU ratio'.padStart(10),
  );
  let failed = false;
  for (const [name, ours, theirs, runs, warmUp] of cases) {
    const before = roundTrips;
    const [mine, reference] = await compare(ours, theirs, runs, warmUp);
    const trips = (roundTrips - before) / (runs + warmUp);
    const ratio = percentile(mine.wall, 0.5) / percentile(reference.wall, 0.5);
    const cpuMine = mine.cpuMicros / runs;
    const cpuReference = reference.cpuMicros / runs;
    console.log(
      name.padEnd(46),
      String(runs).padStart(5),
      `${ms(percentile(mine.wall, 0.5))}/${ms(percentile(mine.wall, 0.9))}`.padStart(17),
      `${ms(percentile(reference.wall, 0.5))}/${ms(percentile(reference.wall, 0.9))}`.padStart(16),
      `${ratio.toFixed(2)}×`.padStart(7),
      `${cpuMine.toFixed(0)}/${cpuReference.toFixed(0)}`.padStart(22),
      `${(cpuMine / cpuReference).toFixed(2)}×`.padStart(10),
    );
    if (trips !== 1) {
      console.error(`  ${name}: ${trips} SQL round trips per query, expected 1`);
      failed = true;
    }
  }
  roundTrips = 0;
  await orders.list(caller, listFilter, projection);
  console.log(`\nSQL round trips per list (knex 'query' events): ${roundTrips}`);
  if (roundTrips !== 1) failed = true;
  console.log(`load average after the cases: ${load()}`);

  const start = process.hrtime.bigint();
  const wide = await openSqlDataSource(withSchema(WIDE_SCHEMA));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const tables = wide.introspection.tables;
  const keys = tables.reduce((total, table) => total + table.foreignKeys.length, 0);
  const relations = wide.collections.reduce(
    (total, collection) =>
      total + Object.values(collection.schema.fields).filter((f) => f.type !== 'Column').length,
    0,
  );
  await wide.close();
  console.log(
    `Introspecting ${tables.length} tables with ${keys} foreign keys into ${relations} ` +
      `relations (connect, catalog, models): ${seconds.toFixed(2)} s`,
  );

  await dataSource.close();
  await raw.end();
  const cleanup = new pg.Client({ connectionString: BASE_URL });
  await cleanup.connect();
  await cleanup.query(`DROP SCHEMA IF EXISTS ${WIDE_SCHEMA} CASCADE`);
  await cleanup.end();
  if (failed) {
    console.error('\nFAILED: a data source query took more than one SQL round trip.');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
