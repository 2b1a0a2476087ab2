import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { Aggregation } from '../../../toolkit/query/aggregation';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';

const caller = makeCaller();

describe('addHook', () => {
  it('runs Before/After hooks in order with their contexts; before-create may change records', async () => {
    const events: string[] = [];
    const { dataSource, bottom } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addHook('Before', 'Create', (context) => {
            events.push(`before create ${context.data.length}`);
            for (const record of context.data) record.status = 'draft';
          })
          .addHook('After', 'Create', (context) => {
            events.push(
              `after create ${context.records.map((r) => r.id).join()} from ${JSON.stringify(context.data[0])}`,
            );
          })
          .addHook('Before', 'List', (context) => {
            events.push(`before list ${[...context.projection].join()}`);
          })
          .addHook('After', 'List', (context) => {
            events.push(`after list ${context.records.length}`);
          })
          .addHook('Before', 'Update', (context) => {
            context.patch.price = 99;
          })
          .addHook('After', 'Aggregate', (context) => {
            events.push(`aggregate ${JSON.stringify(context.aggregateResult)}`);
          }),
      ),
    );
    const books = dataSource.getCollection('books');
    await books.create(caller, [{ title: 'Eric' }]);
    await books.list(
      caller,
      new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 6) }),
      new Projection('status'),
    );
    await books.update(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 6) }),
      { title: 'Eric!' },
    );
    await books.aggregate(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 6) }),
      new Aggregation({ operation: 'Sum', field: 'price' }),
    );
    expect(events).toEqual([
      'before create 1',
      'after create 6 from {"title":"Eric"}',
      'before list status',
      'after list 1',
      'aggregate [{"value":99,"group":{}}]',
    ]);
    expect(bottom.getCollection('books').records.at(-1)).toMatchObject({
      title: 'Eric!',
      status: 'draft',
      price: 99,
    });
  });

  it('aborts the operation when a before-hook throws, with the typed error', async () => {
    const { dataSource, bottom } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books.addHook('Before', 'Delete', (context) =>
          context.throwForbiddenError('Books are forever'),
        ),
      ),
    );
    await expect(
      dataSource.getCollection('books').delete(caller, new Filter()),
    ).rejects.toMatchObject({
      name: 'ForbiddenError',
      code: 'FORBIDDEN',
      message: 'Books are forever',
    });
    expect(bottom.getCollection('books').records).toHaveLength(5);
  });

  it('writes made inside actions skip regular hooks but reach internal hooks', async () => {
    const regular: string[] = [];
    const internal: string[] = [];
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addHook('Before', 'Update', () => void regular.push('update'))
          .addHook('Before', 'Update', () => void internal.push('update'), {
            includeActionWrites: true,
          })
          .addAction('Publish', {
            scope: 'Bulk',
            execute: async (context, resultBuilder) => {
              await context.collection.update(context.filter, { status: 'published' });
              return resultBuilder.success('Published');
            },
          }),
      ),
    );
    const books = dataSource.getCollection('books');
    await books.execute(
      caller,
      'Publish',
      {},
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
    );
    expect(regular).toEqual([]);
    expect(internal).toEqual(['update']);
    await books.update(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
      { price: 1 },
    );
    expect(regular).toEqual(['update']);
    expect(internal).toEqual(['update', 'update']);
  });

  it('refuses unknown positions and types at start', async () => {
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b.addHook('During' as never, 'List', () => undefined),
        ),
      ),
    ).rejects.toThrow("Invalid hook 'During List' on 'books'");
  });

  // Reads skip the hook contexts of a type without handlers: a lone After hook must still run.
  it('runs a lone After List or Before Aggregate hook, and only on its own collection', async () => {
    const seen: string[] = [];
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (b) =>
        b
          .addHook('After', 'List', (context) => void seen.push(`list ${context.records.length}`))
          .addHook('Before', 'Aggregate', () => void seen.push('aggregate')),
      ),
    );
    const filter = new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) });
    await dataSource.getCollection('books').list(caller, filter, new Projection('id'));
    await dataSource
      .getCollection('authors')
      .list(caller, new PaginatedFilter(), new Projection('id'));
    const [count] = await dataSource
      .getCollection('books')
      .aggregate(caller, new Filter(), new Aggregation({ operation: 'Count' }));
    expect(seen).toEqual(['list 1', 'aggregate']);
    expect(count?.value).toBeGreaterThan(1);
  });
});
