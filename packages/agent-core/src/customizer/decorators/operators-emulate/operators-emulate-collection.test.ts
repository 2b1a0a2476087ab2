import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { Sort } from '../../../toolkit/query/sort';
import type { CollectionCustomizer } from '../../collection-customizer';

const caller = makeCaller();
const sorted = (tree: ConditionTreeLeaf) =>
  new PaginatedFilter({ conditionTree: tree, sort: new Sort({ field: 'id', ascending: true }) });

const fullName = (authors: CollectionCustomizer) =>
  authors.addField('fullName', {
    columnType: 'String',
    dependencies: ['firstName', 'lastName'],
    getValues: (records) => records.map((r) => `${r.firstName} ${r.lastName}`),
  });

describe('emulated and replaced operators', () => {
  it('emulateFieldFiltering makes every operator of the type work on a computed field, also through relations', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) => fullName(a).emulateFieldFiltering('fullName')),
    );
    const authors = dataSource.getCollection('authors');
    expect([
      ...(authors.schema.fields.fullName as { filterOperators: Set<string> }).filterOperators,
    ]).toEqual(
      expect.arrayContaining(['Equal', 'Contains', 'StartsWith', 'In', 'Present', 'LongerThan']),
    );
    const found = await authors.list(
      caller,
      sorted(new ConditionTreeLeaf('fullName', 'IContains', 'LE GUIN')),
      new Projection('id'),
    );
    expect(found).toEqual([{ id: 2 }]);
    const books = await dataSource
      .getCollection('books')
      .list(
        caller,
        sorted(new ConditionTreeLeaf('author:fullName', 'StartsWith', 'Frank')),
        new Projection('id'),
      );
    expect(books).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('replaceFieldOperator rewrites the leaf, recursively, and falls back to emulation when the handler returns nothing', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) =>
        fullName(a)
          .replaceFieldOperator('fullName', 'Equal', (value) => {
            const [firstName, lastName] = String(value).split(' ');
            return {
              aggregator: 'And',
              conditions: [
                { field: 'firstName', operator: 'Equal', value: firstName },
                { field: 'lastName', operator: 'Equal', value: lastName },
              ],
            };
          })
          .replaceFieldOperator('fullName', 'In', (values) => ({
            aggregator: 'Or',
            conditions: (values as string[]).map((value) => ({
              field: 'fullName',
              operator: 'Equal',
              value,
            })),
          }))
          .replaceFieldOperator('fullName', 'Contains', () => undefined),
      ),
    );
    const authors = dataSource.getCollection('authors');
    expect(
      await authors.list(
        caller,
        sorted(new ConditionTreeLeaf('fullName', 'In', ['Terry Pratchett', 'Frank Herbert'])),
        new Projection('id'),
      ),
    ).toEqual([{ id: 1 }, { id: 3 }]);
    expect(
      await authors.list(
        caller,
        sorted(new ConditionTreeLeaf('fullName', 'Contains', 'sula')),
        new Projection('id'),
      ),
    ).toEqual([{ id: 2 }]);
  });

  it('detects replacement cycles', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) =>
        fullName(a)
          .replaceFieldOperator('fullName', 'Equal', (value) => ({
            field: 'fullName',
            operator: 'In',
            value: [value],
          }))
          .replaceFieldOperator('fullName', 'In', (values) => ({
            field: 'fullName',
            operator: 'Equal',
            value: (values as string[])[0],
          })),
      ),
    );
    await expect(
      dataSource
        .getCollection('authors')
        .list(
          caller,
          sorted(new ConditionTreeLeaf('fullName', 'Equal', 'x')),
          new Projection('id'),
        ),
    ).rejects.toThrow(
      'Operator replacement cycle: authors.fullName[Equal] -> authors.fullName[In] -> authors.fullName[Equal]',
    );
  });

  it('refuses unknown fields and a missing handler at start', async () => {
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('authors', (a) => a.emulateFieldOperator('nope', 'Equal')),
      ),
    ).rejects.toThrow("The 'authors.nope' field was not found");
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('authors', (a) =>
          a.replaceFieldOperator('firstName', 'Equal', null as never),
        ),
      ),
    ).rejects.toThrow('replaceBy handler is required');
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) => b.emulateFieldOperator('price', 'Contains')),
      ),
    ).rejects.toThrow(
      "The operator 'Contains' is not supported by the column type of 'books.price' (Number).",
    );
  });
});
