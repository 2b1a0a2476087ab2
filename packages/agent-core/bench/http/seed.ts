import pg from 'pg';

/** Schema of the HTTP benchmark (1,000,000 orders by default, 10,000 customers). */
export const BENCH_SCHEMA = 'canopy_http_bench';

/** Creates and fills the benchmark schema unless it already holds `orders` rows. */
export async function seedBenchDatabase(baseUrl: string, orders: number): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const existing = await client.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'orders'`,
      [BENCH_SCHEMA],
    );
    if (existing.rows[0].n === 1) {
      const count = await client.query(`SELECT count(*)::int AS n FROM ${BENCH_SCHEMA}.orders`);
      if (count.rows[0].n === orders) return;
    }
    console.log(`seeding ${orders} orders in schema ${BENCH_SCHEMA}…`);
    await client.query(
      `DROP SCHEMA IF EXISTS ${BENCH_SCHEMA} CASCADE; CREATE SCHEMA ${BENCH_SCHEMA}`,
    );
    await client.query(`
      CREATE TABLE ${BENCH_SCHEMA}.customers (id serial PRIMARY KEY, name text NOT NULL, email text NOT NULL);
      CREATE TABLE ${BENCH_SCHEMA}.orders (
        id serial PRIMARY KEY,
        customer_id integer NOT NULL REFERENCES ${BENCH_SCHEMA}.customers(id),
        status text NOT NULL,
        amount numeric(12,2) NOT NULL,
        placed_at timestamptz NOT NULL);
      INSERT INTO ${BENCH_SCHEMA}.customers (name, email)
        SELECT 'Customer ' || i, 'c' || i || '@example.com' FROM generate_series(1, 10000) i;
      INSERT INTO ${BENCH_SCHEMA}.orders (customer_id, status, amount, placed_at)
        SELECT 1 + (i % 10000), (ARRAY['pending','paid','shipped','cancelled'])[1 + i % 4],
               (i % 1000) / 10.0, timestamptz '2024-01-01' + (i % 700) * interval '1 day' + (i % 1440) * interval '1 minute'
        FROM generate_series(1, ${orders}) i;
      CREATE INDEX ON ${BENCH_SCHEMA}.orders (status, placed_at DESC);
      CREATE INDEX ON ${BENCH_SCHEMA}.orders (customer_id);
      ANALYZE ${BENCH_SCHEMA}.customers; ANALYZE ${BENCH_SCHEMA}.orders;`);
  } finally {
    await client.end();
  }
}

/** The benchmark schema's URL for datasource-sql. */
export function benchUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('schema', BENCH_SCHEMA);
  return url.toString();
}
