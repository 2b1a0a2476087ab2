import express from 'express';
import request from 'supertest';

import { openSqlDataSource, type SqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';

import { AgentOperations } from '../mcp/agent-operations';
import { createOperationContext } from '../operations/context';
import { createAgentRouter } from './create-agent-router';
import { bearer, createTestServices, TEST_CLAIMS } from './test-fixtures/shop-services';

/**
 * Lists read without a sort come by primary key on every path. PostgreSQL writes an updated row
 * as a new tuple at the end of the table, so a query without ORDER BY returns it last: the
 * updated row must keep its place all the same.
 */
describe('default order of unsorted lists on PostgreSQL', () => {
  const db = useTestDatabase('postgres');
  let dataSource: SqlDataSource;
  let services: ReturnType<typeof createTestServices>;
  let app: express.Express;

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL);
      CREATE TABLE orders (
        id integer PRIMARY KEY,
        reference text NOT NULL,
        customer_id integer REFERENCES customers(id));
      CREATE TABLE stock (warehouse text, sku text, quantity integer NOT NULL,
        PRIMARY KEY (warehouse, sku));
      INSERT INTO customers VALUES (1, 'Ada'), (2, 'Bob'), (3, 'Cyd'), (4, 'Dee');
      INSERT INTO orders VALUES (10, 'SO-10', 1), (11, 'SO-11', 1), (12, 'SO-12', 1), (13, 'SO-13', 2);
      INSERT INTO stock VALUES ('B', 'x', 1), ('A', 'y', 2), ('A', 'x', 3);
      -- Rows rewritten after the insert: their tuples now sit at the end of each table.
      UPDATE customers SET name = 'Ada Lovelace' WHERE id = 1;
      UPDATE orders SET reference = 'SO-10b' WHERE id = 10;
      UPDATE stock SET quantity = 4 WHERE warehouse = 'A' AND sku = 'x';
    `);
    dataSource = await openSqlDataSource(db().url);
    services = createTestServices(dataSource);
    app = express();
    app.use(createAgentRouter(services));
  });

  afterAll(async () => {
    await dataSource?.close();
  });

  const get = (path: string) => request(app).get(path).set('Authorization', bearer()).expect(200);
  const ids = (body: { data: { id: string }[] }) => body.data.map((record) => record.id);

  it('has the storage order this test relies on (the updated row last)', async () => {
    const rows = await db().knex.raw('SELECT id FROM customers');
    expect(rows.rows.map((row: { id: number }) => row.id)).toEqual([2, 3, 4, 1]);
  });

  it('lists by primary key without a sort, page after page', async () => {
    expect(ids((await get('/forest/customers?timezone=UTC')).body)).toEqual(['1', '2', '3', '4']);
    const pages = [];
    for (const number of [1, 2]) {
      const page = await get(`/forest/customers?timezone=UTC&page[size]=2&page[number]=${number}`);
      pages.push(ids(page.body));
    }
    expect(pages).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('orders by every column of a composite key', async () => {
    const list = await get('/forest/stock?timezone=UTC');
    expect(ids(list.body)).toEqual(['A|x', 'A|y', 'B|x']);
  });

  it('keeps an explicit sort', async () => {
    const list = await get('/forest/customers?timezone=UTC&sort=-id');
    expect(ids(list.body)).toEqual(['4', '3', '2', '1']);
  });

  it('lists related records by primary key', async () => {
    const list = await get('/forest/customers/1/relationships/orders?timezone=UTC');
    expect(ids(list.body)).toEqual(['10', '11', '12']);
  });

  it('exports by primary key, records and related records', async () => {
    const csv = await get('/forest/customers.csv?timezone=UTC&fields[customers]=id&header=id');
    expect(csv.text).toBe('id\n1\n2\n3\n4\n');
    const related = await get(
      '/forest/customers/1/relationships/orders.csv?timezone=UTC&fields[orders]=id&header=id',
    );
    expect(related.text).toBe('id\n10\n11\n12\n');
  });

  it('lists by primary key through the MCP operations', async () => {
    const agent = new AgentOperations(createOperationContext(services), {
      ...TEST_CLAIMS,
      iat: 0,
      exp: 0,
    } as never);
    const firstPage = { page: { number: 1, size: 15 } };
    const list = await agent.list('customers', firstPage);
    expect(list.records.map((record) => String(record.id))).toEqual(['1', '2', '3', '4']);
    const related = await agent.listRelated('customers', '1', 'orders', firstPage);
    expect(related.records.map((record) => String(record.id))).toEqual(['10', '11', '12']);
  });
});
