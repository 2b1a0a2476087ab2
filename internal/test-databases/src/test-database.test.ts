import { createTestDatabase, type TestDialect } from './index';

const dialects: TestDialect[] = ['postgres', 'mariadb', 'embedded-postgres'];

describe.each(dialects)('%s test database', (dialect) => {
  it('creates a fresh namespace, runs real queries in it, and drops it', async () => {
    const db = await createTestDatabase(dialect);
    let dropped = false;
    try {
      await db.knex.schema.createTable('orders', (table) => {
        table.increments('id').primary();
        table.string('status').notNullable();
        table.decimal('amount', 10, 2);
      });
      await db.knex('orders').insert([
        { status: 'paid', amount: 12.5 },
        { status: 'paid', amount: 7.5 },
        { status: 'refunded', amount: 3 },
      ]);
      const rows = (await db
        .knex('orders')
        .select('status')
        .sum({ total: 'amount' })
        .groupBy('status')
        .orderBy('status')) as { status: string; total: string | number }[];
      expect(rows.map((row) => [row.status, Number(row.total)])).toEqual([
        ['paid', 20],
        ['refunded', 3],
      ]);

      // A second namespace of the same dialect does not see the first one's tables.
      const other = await createTestDatabase(dialect);
      try {
        expect(await other.knex.schema.hasTable('orders')).toBe(false);
      } finally {
        await other.drop();
      }

      const name = db.name;
      await db.drop();
      dropped = true;
      expect(await namespaceExists(dialect, name)).toBe(false);
    } finally {
      if (!dropped) await db.drop();
    }
  }, 60_000);
});

async function namespaceExists(dialect: TestDialect, name: string): Promise<boolean> {
  if (dialect === 'embedded-postgres') return false; // the whole in-process server is gone
  const probe = await createTestDatabase(dialect);
  try {
    if (dialect === 'postgres') {
      const result = await probe.knex.raw(
        'select 1 from information_schema.schemata where schema_name = ?',
        [name],
      );
      return result.rows.length > 0;
    }
    const [rows] = await probe.knex.raw(
      'select 1 from information_schema.schemata where schema_name = ?',
      [name],
    );
    return rows.length > 0;
  } finally {
    await probe.drop();
  }
}
