import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DataSource,
  DataSourceCustomizer,
  type DataSourceFactory,
  Filter,
  PaginatedFilter,
  Projection,
} from '@canopy/agent-core';
import { caller, makeShop } from '../test/shop';
import { schemaListing } from '../test/schema-listing';
import { flattenColumn, flattenJsonColumn, flattenRelation } from './index';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

/** The lines between `// <name>:start` and `// <name>:end` of a file (default: this one), dedented. */
function marked(name: string, file = __filename): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `// ${name}:start`);
  const end = lines.findIndex((line) => line.trim() === `// ${name}:end`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.search(/\S/)));
  return body.map((line) => line.slice(indent)).join('\n');
}

/** A README code block (```text) that follows a heading line containing `title`. */
function block(title: string): string {
  const at = readme.indexOf(title);
  const open = readme.indexOf('```text\n', at);
  const close = readme.indexOf('\n```', open + 8);
  if (at === -1 || open === -1) throw new Error(`README has no block after '${title}'.`);
  return readme.slice(open + 8, close);
}

const shopDataSource: DataSourceFactory = async () => makeShop();

async function runExample(): Promise<DataSource> {
  // example:start
  const customizer = new DataSourceCustomizer()
    .addDataSource(shopDataSource)
    .customizeCollection('customers', (customers) =>
      customers.use(flattenColumn, { columnName: 'address', level: 2 }),
    )
    .customizeCollection('orders', (orders) =>
      orders
        .use(flattenJsonColumn, {
          columnName: 'delivery',
          columnType: { carrier: 'String', address: { city: 'String', zip: 'String' } },
        })
        .use(flattenRelation, { relationName: 'customer:company', include: ['name', 'country'] }),
    );
  const dataSource = await customizer.getDataSource();
  // example:end
  return dataSource;
}

describe('README', () => {
  let before: DataSource;
  let jsonOnly: DataSource;
  let after: DataSource;

  beforeAll(async () => {
    before = await new DataSourceCustomizer().addDataSource(shopDataSource).getDataSource();
    jsonOnly = await new DataSourceCustomizer()
      .addDataSource(shopDataSource)
      .customizeCollection('orders', (orders) =>
        orders.use(flattenJsonColumn, {
          columnName: 'delivery',
          columnType: { carrier: 'String', address: { city: 'String', zip: 'String' } },
        }),
      )
      .getDataSource();
    after = await runExample();
  });

  it('shows the example this test runs', () => {
    expect(readme).toContain(marked('example'));
    expect(readme).toContain(marked('usage'));
  });

  it('shows the nativeFields example the PostgreSQL suite runs', () => {
    const suite = join(__dirname, '..', 'test', 'postgres.test.ts');
    expect(readme).toContain(marked('native', suite));
    const generated = `GENERATED ALWAYS AS ((delivery #>> '{address,geo,lat}')::double precision) STORED`;
    expect(readFileSync(suite, 'utf8')).toContain(generated);
    expect(readme).toContain(generated);
  });

  it.each([
    ['flattenColumn', 'customers', () => before, () => after],
    ['flattenJsonColumn', 'orders', () => before, () => jsonOnly],
    ['flattenRelation', 'orders', () => jsonOnly, () => after],
  ])('shows the schema before and after %s as the stack exposes it', (plugin, name, from, to) => {
    expect(block(`${plugin}: ${name} before`)).toBe(
      schemaListing(from().getCollection(name).schema),
    );
    expect(block(`${plugin}: ${name} after`)).toBe(schemaListing(to().getCollection(name).schema));
  });

  it('reads and writes as the README says', async () => {
    const customers = after.getCollection('customers');
    const orders = after.getCollection('orders');
    // usage:start
    // Reads: one field per nested key.
    const [ada] = await customers.list(
      caller,
      new PaginatedFilter({ conditionTree: { field: 'name', operator: 'Equal', value: 'Ada' } }),
      new Projection('address@@@city', 'address@@@geo@@@lat'),
    );
    // → { 'address@@@city': 'Lyon', 'address@@@geo@@@lat': 45.76 }

    // Writes: one nested key on every order; each order keeps its other keys.
    await orders.update(caller, new Filter(), { 'delivery@@@address@@@zip': '69002' });

    // Relation fields filter and sort like the target column.
    const french = await orders.list(
      caller,
      new PaginatedFilter({
        conditionTree: { field: 'customer@@@company@@@country', operator: 'Equal', value: 'FR' },
        sort: [{ field: 'customer@@@company@@@name', ascending: true }],
      }),
      new Projection('reference', 'delivery@@@address@@@city'),
    );
    // → [{ reference: 'A-1', 'delivery@@@address@@@city': 'Lyon' }]
    // usage:end
    expect(ada).toEqual({ 'address@@@city': 'Lyon', 'address@@@geo@@@lat': 45.76 });
    expect(french).toEqual([{ reference: 'A-1', 'delivery@@@address@@@city': 'Lyon' }]);
    const zips = await orders.list(
      caller,
      new PaginatedFilter({}),
      new Projection('delivery@@@address@@@zip', 'delivery@@@carrier'),
    );
    expect(zips).toEqual([
      { 'delivery@@@address@@@zip': '69002', 'delivery@@@carrier': 'UPS' },
      { 'delivery@@@address@@@zip': '69002', 'delivery@@@carrier': 'DHL' },
      { 'delivery@@@address@@@zip': '69002', 'delivery@@@carrier': 'UPS' },
    ]);
  });
});
