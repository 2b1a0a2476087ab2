import { Aggregation, Filter, PaginatedFilter, Projection } from '@canopy/agent-core';
import knexFactory from 'knex';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlDataSource } from './index';

const directory = mkdtempSync(join(tmpdir(), 'canopy-readme-'));
const file = join(directory, 'shop.db');

beforeAll(async () => {
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
  });
  try {
    await knex.schema.createTable('customers', (table) => {
      table.increments('id');
      table.string('name').notNullable();
    });
    await knex.schema.createTable('orders', (table) => {
      table.increments('id');
      table.integer('customer_id').references('id').inTable('customers');
      table.enu('status', ['pending', 'paid']);
      table.decimal('amount', 10, 2);
      table.specificType('placed_at', 'datetime');
    });
    await knex('customers').insert([{ name: 'Zed' }, { name: 'Ada' }]);
    await knex('orders').insert([
      { customer_id: 1, status: 'paid', amount: 10, placed_at: '2024-01-31T23:30:00.000Z' },
      { customer_id: 2, status: 'paid', amount: 5, placed_at: '2024-01-15T10:00:00.000Z' },
      { customer_id: 2, status: 'pending', amount: 1, placed_at: '2024-01-16T10:00:00.000Z' },
    ]);
  } finally {
    await knex.destroy();
  }
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The README example, as it appears there (between the markers, dedented). */
function exampleSource(): string {
  const lines = readFileSync(__filename, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === '// example:start');
  const end = lines.findIndex((line) => line.trim() === '// example:end');
  return lines
    .slice(start + 1, end)
    .map((line) => line.replace(/^ {4}/, ''))
    .join('\n');
}

describe('README', () => {
  it('shows the example this test runs', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const example = exampleSource().trim();
    expect(example).toContain('openSqlDataSource(');
    expect(readme).toContain(example);
  });

  it('runs the example: one joined list and a monthly sum in the caller zone', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    // example:start
    const dataSource = await openSqlDataSource(`sqlite:${file}`);
    try {
      const orders = dataSource.getCollection('orders');
      const caller = {
        id: 1,
        email: 'ops@example.com',
        firstName: 'Ops',
        lastName: 'Team',
        team: 'Ops',
        role: 'Admin',
        tags: {},
        timezone: 'Europe/Paris',
      };

      // One SELECT with a LEFT JOIN on customers.
      const page = await orders.list(
        caller,
        new PaginatedFilter({
          conditionTree: { field: 'status', operator: 'Equal', value: 'paid' },
          sort: [{ field: 'customer:name', ascending: true }],
        }),
        new Projection('id', 'amount', 'customer:name'),
      );

      // Monthly revenue, months computed in Europe/Paris.
      const revenue = await orders.aggregate(
        caller,
        new Filter(),
        new Aggregation({
          operation: 'Sum',
          field: 'amount',
          groups: [{ field: 'placed_at', operation: 'Month' }],
        }),
      );
      console.log(page, revenue);
    } finally {
      await dataSource.close();
    }
    // example:end
    const [page, revenue] = log.mock.calls[0] ?? [];
    log.mockRestore();
    expect(page).toEqual([
      { id: 2, amount: 5, customer: { name: 'Ada' } },
      { id: 1, amount: 10, customer: { name: 'Zed' } },
    ]);
    expect(revenue).toEqual([
      { value: 10, group: { placed_at: '2024-02-01' } },
      { value: 6, group: { placed_at: '2024-01-01' } },
    ]);
  });
});
