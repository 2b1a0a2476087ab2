import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';

const caller = makeCaller();

describe('overrideCreate, overrideUpdate, overrideDelete', () => {
  it('replace the bottom operations; handlers receive filters rewritten to native fields', async () => {
    const seen: unknown[] = [];
    const { dataSource, bottom } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addField('expensive', {
            columnType: 'Boolean',
            dependencies: ['price'],
            getValues: (r) => r.map((x) => Number(x.price) > 10),
          })
          .replaceFieldOperator('expensive', 'Equal', (value) => ({
            field: 'price',
            operator: value ? 'GreaterThan' : 'LessThanOrEqual',
            value: 10,
          }))
          .overrideCreate(async (context) => {
            seen.push(context.data);
            return [{ id: 100, title: String(context.data[0]?.title), unknownKey: true }];
          })
          .overrideUpdate(async (context) => {
            seen.push(context.filter.conditionTree?.toPlainObject(), context.patch);
          })
          .overrideDelete(async (context) => {
            await context.collection.update(context.filter, { status: 'draft' });
          }),
      ),
    );
    const books = dataSource.getCollection('books');
    expect(await books.create(caller, [{ title: 'Eric' }])).toEqual([{ id: 100, title: 'Eric' }]);
    await books.update(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('expensive', 'Equal', true) }),
      { price: 1 },
    );
    expect(seen).toEqual([
      [{ title: 'Eric' }],
      { field: 'price', operator: 'GreaterThan', value: 10 },
      { price: 1 },
    ]);
    await books.delete(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 1) }),
    );
    expect(bottom.getCollection('books').records).toHaveLength(5);
    expect(bottom.getCollection('books').records[0]).toMatchObject({ status: 'draft' });
  });

  it('checks what overrideCreate returns', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (b) => b.overrideCreate(() => [{ title: 'no key' }])),
    );
    await expect(
      dataSource.getCollection('books').create(caller, [{ title: 'x' }]),
    ).rejects.toThrow('The record does not contain any primary key field');
    const { dataSource: other } = await buildBookshop((c) =>
      c.customizeCollection('books', (b) => b.overrideCreate(() => 'x' as never)),
    );
    await expect(other.getCollection('books').create(caller, [{ title: 'x' }])).rejects.toThrow(
      'The records must be an array of objects',
    );
  });
});
