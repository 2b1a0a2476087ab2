import { buildBookshop, makeBookshop, makeCaller } from '../../../../test/fixtures';
import type { Collection } from '../../../toolkit/interfaces/collection';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import { isValidated, markValidated } from '../../../toolkit/validation/validated';
import { DecoratorStack } from '../../decorator-stack';

const caller = makeCaller();

describe('addFieldValidation, setFieldNullable and input validation', () => {
  const build = () =>
    buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addFieldValidation('title', 'LongerThan', 2)
          .addFieldValidation('title', 'Present')
          .addFieldValidation('price', 'GreaterThan', 0)
          .addFieldValidation('publishedAt', 'Before', '2100-01-01T00:00:00Z')
          .setFieldNullable('title'),
      ),
    );

  it('enforces rules on create (even absent fields) and on update (patched fields only)', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    await expect(books.create(caller, [{ title: 'It', price: 3 }])).rejects.toThrow(
      "'title' failed validation rule: 'LongerThan(2)'",
    );
    await expect(books.create(caller, [{ price: 3 }])).rejects.toThrow(
      "'title' failed validation rule: 'Present'",
    );
    await expect(books.create(caller, [{ title: 'Eric', price: -1 }])).rejects.toThrow(
      "'price' failed validation rule: 'GreaterThan(0)'",
    );
    await expect(
      books.create(caller, [{ title: 'Eric', publishedAt: '2200-01-01T00:00:00Z' }]),
    ).rejects.toThrow("'publishedAt' failed validation rule: 'Before(\"2100-01-01T00:00:00Z\")'");
    await expect(books.create(caller, [{ title: 'Eric', price: 3 }])).resolves.toHaveLength(1);
    await expect(books.update(caller, new Filter(), { price: 4 })).resolves.toBeUndefined();
    await expect(books.update(caller, new Filter(), { price: 0 })).rejects.toThrow(
      "'price' failed validation rule",
    );
  });

  it('publishes the rules and the nullable override in the schema', async () => {
    const { dataSource } = await build();
    expect(dataSource.getCollection('books').schema.fields.title).toMatchObject({
      allowNull: true,
      validation: [{ operator: 'LongerThan', value: 2 }],
    });
  });

  it('rejects values of the wrong type in filters and writes before they reach the data source', async () => {
    const { dataSource } = await build();
    const books = dataSource.getCollection('books');
    await expect(
      books.list(
        caller,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('price', 'Equal', 'ten') }),
        new Projection('id'),
      ),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('"books.price": "ten"'),
    });
    await expect(books.update(caller, new Filter(), { status: 'lost' })).rejects.toThrow(
      'not listed in [draft, published]',
    );
    await expect(books.create(caller, [{ title: 'Eric', id: 9 }])).rejects.toThrow(
      "The 'books.id' field is read-only",
    );
  });

  it('refuses rules on unknown, relation, path or read-only fields at start', async () => {
    for (const [field, message] of [
      ['nope', "The 'books.nope' field was not found"],
      ['author', "Unexpected field type: 'books.author'"],
      ['author:firstName', "'books.author:firstName' is a path through a relation"],
      ['id', "Cannot add validators on a readonly field ('books.id')"],
    ]) {
      await expect(
        buildBookshop((c) =>
          c.customizeCollection('books', (b) => b.addFieldValidation(field as string, 'Present')),
        ),
      ).rejects.toThrow(message);
    }
  });
});

describe('one validation per request', () => {
  it('validates a tree entering the stack once and hands it down marked; trusts marked trees', async () => {
    const seen: PaginatedFilter[] = [];
    const base = makeBookshop();
    const native = base.getCollection('books') as Collection;
    const list = native.list.bind(native);
    native.list = (caller, filter, projection) => {
      seen.push(filter);
      return list(caller, filter, projection);
    };
    const top = new DecoratorStack(base).dataSource.getCollection('books');
    const caller = makeCaller();

    const raw = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('title', 'Equal', 'Dune'),
    });
    await expect(top.list(caller, raw, new Projection('id'))).resolves.toEqual([{ id: 1 }]);
    expect(seen[0]?.conditionTree).toBe(raw.conditionTree);
    expect(isValidated(seen[0]?.conditionTree)).toBe(true);

    // Marked where the request entered: not walked again (a wrong value is not refused here).
    const trusted = new ConditionTreeLeaf('title', 'Equal', 42);
    markValidated(trusted);
    await top.list(caller, new PaginatedFilter({ conditionTree: trusted }), new Projection('id'));
    expect(seen[1]?.conditionTree).toBe(trusted);

    const wrong = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('title', 'Equal', 42),
    });
    await expect(top.list(caller, wrong, new Projection('id'))).rejects.toThrow('wrong type');
    expect(seen).toHaveLength(2);
  });
});
