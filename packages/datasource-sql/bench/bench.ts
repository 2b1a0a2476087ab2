// Benchmark of the SQL data source against hand-written SQL run with `pg` directly, on a
// PostgreSQL with 1,000,000 orders (PG_URL, default 127.0.0.1:5432/test), plus the time to
// introspect a schema of 500 tables linked by foreign keys. Run: pnpm --filter @canopy/datasource-sql bench
import {
  Aggregation,
  Filter,
  Page,
  PaginatedFilter,
  Projection,
  type Caller,
} from '@canopy/agent-core';
import pg from 'pg';
import { openSqlDataSource } from '../src/index';

const BASE_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'canopy_bench';
const WIDE_SCHEMA = 'canopy_bench_500';
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const caller: Caller = {
  id: 1,
  email: 'bench@example.com',
  firstName: 'B',
  lastName: 'B',
  team: 'B',
  role: 'B',
  tags: {},
  timezone: 'Europe/Paris',
};

function withSchema(schema: string): string {
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  return url.toString();
}

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

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Median times of both sides, measured alternately so that a load change on the machine
 * affects both equally.
 */
async function compare(
  ours: () => Promise<unknown>,
  theirs: () => Promise<unknown>,
): Promise<[number, number]> {
  for (let warm = 0; warm < 5; warm += 1) {
    await ours();
    await theirs();
  }
  const mine: number[] = [];
  const reference: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    mine.push(await elapsed(ours));
    reference.push(await elapsed(theirs));
  }
  return [median(mine), median(reference)];
}

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

  const cases: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
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
    ],
    [
      'count',
      () => orders.aggregate(caller, countFilter, new Aggregation({ operation: 'Count' })),
      () => raw.query(`SELECT COUNT(*) FROM ${SCHEMA}.orders WHERE status = $1`, ['paid']),
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
    ],
  ];

  console.log(`\n${ORDERS} orders, median of ${RUNS} runs\n`);
  console.log(
    'case'.padEnd(48),
    'data source'.padStart(12),
    'raw pg'.padStart(10),
    'ratio'.padStart(7),
  );
  for (const [name, ours, theirs] of cases) {
    const [mine, reference] = await compare(ours, theirs);
    console.log(
      name.padEnd(48),
      `${mine.toFixed(2)} ms`.padStart(12),
      `${reference.toFixed(2)} ms`.padStart(10),
      `${(mine / reference).toFixed(2)}×`.padStart(7),
    );
  }
  roundTrips = 0;
  await orders.list(caller, listFilter, projection);
  console.log(`\nSQL round trips per list: ${roundTrips}`);

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
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
