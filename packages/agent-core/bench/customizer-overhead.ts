// Per-request overhead of the customizer's decorator stack: lists 100 records through a stack with
// 5 computed fields, a customizer relation, a segment and a hook, and compares with the bare
// in-memory collection. Run with `pnpm --filter @canopy/agent-core bench:customizer`.
import {
  type Caller,
  type Collection,
  DataSourceCustomizer,
  InMemoryDataSource,
  PaginatedFilter,
  Projection,
  Sort,
  Page,
} from '../src/index';

const RECORDS = 100;
const WARMUP = 200;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);

const caller: Caller = {
  id: 1,
  email: 'bench@example.com',
  firstName: 'Bench',
  lastName: 'Mark',
  team: 'Operations',
  role: 'Admin',
  tags: {},
  timezone: 'Europe/Paris',
};

function makeDataSource(): InMemoryDataSource {
  return new InMemoryDataSource({
    authors: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true },
        name: { type: 'Column', columnType: 'String' },
      },
      records: Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Author ${i + 1}` })),
    },
    books: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true },
        title: { type: 'Column', columnType: 'String' },
        price: { type: 'Column', columnType: 'Number' },
        stock: { type: 'Column', columnType: 'Number' },
        publishedAt: { type: 'Column', columnType: 'Date' },
        authorId: { type: 'Column', columnType: 'Number' },
      },
      records: Array.from({ length: RECORDS }, (_, i) => ({
        id: i + 1,
        title: `Book ${i + 1}`,
        price: 5 + (i % 30),
        stock: i % 7,
        publishedAt: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
        authorId: (i % 20) + 1,
      })),
    },
  });
}

async function buildStack(): Promise<Collection> {
  let hookCalls = 0;
  const customizer = new DataSourceCustomizer()
    .addDataSource(async () => makeDataSource())
    .customizeCollection('books', (books) =>
      books
        .addManyToOneRelation('writer', 'authors', { foreignKey: 'authorId' })
        .addField('priceWithTax', {
          columnType: 'Number',
          dependencies: ['price'],
          getValues: (records) => records.map((r) => Number(r.price) * 1.2),
        })
        .addField('inStock', {
          columnType: 'Boolean',
          dependencies: ['stock'],
          getValues: (records) => records.map((r) => Number(r.stock) > 0),
        })
        .addField('upperTitle', {
          columnType: 'String',
          dependencies: ['title'],
          getValues: (records) => records.map((r) => String(r.title).toUpperCase()),
        })
        .addField('year', {
          columnType: 'Number',
          dependencies: ['publishedAt'],
          getValues: (records) =>
            records.map((r) => new Date(String(r.publishedAt)).getUTCFullYear()),
        })
        .addField('label', {
          columnType: 'String',
          dependencies: ['title', 'writer:name'],
          getValues: (records) =>
            records.map((r) => `${r.title} by ${(r.writer as { name?: string } | null)?.name}`),
        })
        .addSegment('affordable', { field: 'price', operator: 'LessThan', value: 1000 })
        .addHook('Before', 'List', () => {
          hookCalls += 1;
        }),
    );
  const dataSource = await customizer.getDataSource();
  if (hookCalls !== 0) throw new Error('The hook ran before any request.');
  return dataSource.getCollection('books');
}

async function measure(name: string, run: () => Promise<unknown[]>) {
  for (let i = 0; i < WARMUP; i += 1) await run();
  // CPU time is reported next to wall time: it stays meaningful on a shared, loaded machine.
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i += 1) {
    const records = await run();
    if (records.length !== RECORDS) throw new Error(`${name} returned ${records.length} records`);
  }
  const cpu = process.cpuUsage(cpuStart);
  const wallUs = Number(process.hrtime.bigint() - start) / 1000 / ITERATIONS;
  const cpuUs = (cpu.user + cpu.system) / ITERATIONS;
  return { name, wallUs, cpuUs };
}

async function main() {
  const bare = makeDataSource().getCollection('books');
  const stacked = await buildStack();
  const page = new Page(0, RECORDS);
  const sort = new Sort({ field: 'id', ascending: true });

  const baseline = await measure('bare in-memory collection', () =>
    bare.list(
      caller,
      new PaginatedFilter({ sort, page }),
      new Projection('id', 'title', 'price', 'stock', 'publishedAt', 'authorId'),
    ),
  );
  const customized = await measure('decorator stack (5 computed, relation, segment, hook)', () =>
    stacked.list(
      caller,
      new PaginatedFilter({ sort, page, segment: 'affordable' }),
      new Projection(
        'id',
        'title',
        'priceWithTax',
        'inStock',
        'upperTitle',
        'year',
        'label',
        'writer:name',
      ),
    ),
  );

  const rows = [baseline, customized].map(({ name, wallUs, cpuUs }) => ({
    case: name,
    'CPU µs / request': cpuUs.toFixed(1),
    'wall µs / request': wallUs.toFixed(1),
  }));
  console.log(
    `list of ${RECORDS} records, ${ITERATIONS} iterations after ${WARMUP} warm-up (node ${process.version})`,
  );
  console.table(rows);
  const overhead = customized.cpuUs - baseline.cpuUs;
  console.log(
    `stack overhead: ${overhead.toFixed(1)} CPU µs per request (${(customized.cpuUs / baseline.cpuUs).toFixed(1)}× the bare collection)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
