import { useTestDatabase } from '@canopy/test-databases';
import { countShop, seedShop } from './seed';

const first = useTestDatabase('postgres');
const second = useTestDatabase('postgres');

const size = { customers: 200, products: 40, orders: 600 };

/** A digest of every table's content, to compare two seeded databases. */
async function digest(db: ReturnType<typeof first>) {
  const tables = ['customers', 'products', 'orders', 'order_lines', 'payments', 'reviews'];
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const result = await db.knex.raw(
      `select md5(string_agg(t::text, ',' order by t::text)) as digest from ?? t`,
      [table],
    );
    digests[table] = result.rows[0].digest;
  }
  return digests;
}

describe('sample shop seed', () => {
  it('fills every table with consistent, deterministic data', async () => {
    await seedShop(first().knex, size);
    await seedShop(second().knex, size);

    const counts = await countShop(first().knex);
    expect(counts.customers).toBe(200);
    expect(counts.products).toBe(40);
    expect(counts.orders).toBe(600);
    expect(counts.order_lines).toBeGreaterThan(600);
    expect(counts.payments).toBeGreaterThan(0);
    expect(counts.payments).toBeLessThan(600);
    expect(counts.reviews).toBe(240);

    expect(await digest(first())).toEqual(await digest(second()));

    // Every order line points at an existing product, and payments match their order's lines.
    const mismatched = await first().knex.raw(`
      select count(*)::int as n from payments p
      where p.amount <> (select sum(quantity * unit_price) from order_lines l where l.order_id = p.order_id)`);
    expect(mismatched.rows[0].n).toBe(0);
    const customer = await first().knex('customers').where({ id: 1 }).first();
    expect(customer.address).toEqual(
      expect.objectContaining({
        city: expect.any(String),
        geo: expect.objectContaining({ lat: expect.any(Number) }),
      }),
    );
  }, 60_000);
});
