import { makeBookshop, makeCaller } from '../../../test/fixtures';
import { ConditionTreeLeaf } from '../../toolkit/query/condition-tree/condition-tree-leaf';
import { Aggregation } from '../../toolkit/query/aggregation';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import { Sort } from '../../toolkit/query/sort';
import { DecoratorStack } from '../decorator-stack';
import type { Collection } from '../../toolkit/interfaces/collection';
import { CollectionDecorator } from './collection-decorator';
import { DataSourceDecorator } from './data-source-decorator';

// Layers with nothing to do for a request pass it straight through, deciding so from facts about
// their whole layer cached per schema version, and the validation layer remembers what it has
// validated per schema version. A customization made after requests have been served must be
// seen by the very next request, with the same filter, sort and projection objects.
const caller = makeCaller();

function books(stack: DecoratorStack) {
  return stack.dataSource.getCollection('books');
}

describe('layers that pass requests through', () => {
  it('remembers the collection name per schema version', () => {
    const stack = new DecoratorStack(makeBookshop());
    expect(books(stack).name).toBe('books');
    const child = { name: 'first' } as Collection;
    const layer = new CollectionDecorator(
      child,
      new DataSourceDecorator(stack.dataSource, CollectionDecorator),
    );
    expect(layer.name).toBe('first');
    (child as { name: string }).name = 'second';
    expect(layer.name).toBe('first');
    layer.markSchemaAsDirty();
    expect(layer.name).toBe('second');
  });

  it('computes a field added after the layer passed lists through', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 1) });
    expect(await books(stack).list(caller, filter, new Projection('id', 'title'))).toEqual([
      { id: 1, title: 'Dune' },
    ]);

    stack.lateComputed.getCollection('books').registerComputed('shout', {
      columnType: 'String',
      dependencies: ['title'],
      getValues: (records) => records.map((record) => `${String(record.title)}!`),
    });
    expect(await books(stack).list(caller, filter, new Projection('id', 'shout'))).toEqual([
      { id: 1, shout: 'Dune!' },
    ]);
  });

  it('computes a field of a related collection reached through a native relation', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 1) });
    await books(stack).list(caller, filter, new Projection('id', 'author:lastName'));

    stack.earlyComputed.getCollection('authors').registerComputed('initials', {
      columnType: 'String',
      dependencies: ['firstName', 'lastName'],
      getValues: (records) =>
        records.map((r) => `${String(r.firstName)[0]}${String(r.lastName)[0]}`),
    });
    expect(
      await books(stack).list(caller, filter, new Projection('id', 'author:initials')),
    ).toEqual([{ id: 1, author: { initials: 'FH' } }]);
  });

  it('reads and filters through a relation added after lists passed through', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('writer:lastName', 'Equal', 'Pratchett'),
    });
    // Before the relation exists, the path is refused by the validation layer.
    await expect(books(stack).list(caller, filter, new Projection('id'))).rejects.toThrow(/writer/);
    await books(stack).list(caller, new PaginatedFilter(), new Projection('id'));

    stack.relation.getCollection('books').addRelation('writer', {
      type: 'ManyToOne',
      foreignCollection: 'authors',
      foreignKey: 'authorId',
    });
    const records = await books(stack).list(
      caller,
      filter,
      new Projection('id', 'writer:lastName'),
    );
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(record.writer).toEqual({ lastName: 'Pratchett' });
  });

  it('emulates a sort added after lists with that sort passed through', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({ sort: new Sort({ field: 'title', ascending: true }) });
    const before = await books(stack).list(caller, filter, new Projection('id', 'title'));
    expect(before.map((r) => r.title)).toEqual([...before.map((r) => String(r.title))].sort());

    stack.sortEmulate
      .getCollection('books')
      .replaceFieldSorting('title', [{ field: 'price', ascending: false }]);
    const after = await books(stack).list(caller, filter, new Projection('id', 'price'));
    const prices = after.map((r) => Number(r.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('replaces an operator declared after filters with it passed through', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('title', 'Equal', 'Anything'),
    });
    expect(await books(stack).list(caller, filter, new Projection('id'))).toEqual([]);

    stack.lateOperators
      .getCollection('books')
      .replaceFieldOperator('title', 'Equal', () => new ConditionTreeLeaf('id', 'Equal', 3));
    expect(await books(stack).list(caller, filter, new Projection('id'))).toEqual([{ id: 3 }]);
  });
});

describe('layers whose class does nothing with reads', () => {
  const filter = () =>
    new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('id', 'In', [1, 3]),
      sort: new Sort({ field: 'id', ascending: true }),
    });

  it('are read past: lists and aggregates reach the layer below them, with the same answers', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const top = books(stack);
    const expected = await top.list(caller, filter(), new Projection('id', 'title'));
    const counted = await top.aggregate(caller, filter(), new Aggregation({ operation: 'Count' }));

    // Publication and actions change neither lists nor aggregates; hooks and validation do.
    const passed = [stack.publication, stack.action, stack.chart].map((layer) => {
      const collection = layer.getCollection('books');
      return [jest.spyOn(collection, 'list'), jest.spyOn(collection, 'aggregate')];
    });
    const internalHook = jest.spyOn(stack.internalHook.getCollection('books'), 'list');
    const validation = jest.spyOn(stack.validation.getCollection('books'), 'aggregate');

    expect(await top.list(caller, filter(), new Projection('id', 'title'))).toEqual(expected);
    expect(await top.aggregate(caller, filter(), new Aggregation({ operation: 'Count' }))).toEqual(
      counted,
    );
    expect(expected.map((record) => record.id)).toEqual([1, 3]);
    for (const spy of passed.flat()) expect(spy).not.toHaveBeenCalled();
    expect(internalHook).toHaveBeenCalledTimes(1);
    expect(validation).toHaveBeenCalledTimes(1);
  });

  it('still reach a layer above them that overrides list, with the same arguments', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const seen: unknown[][] = [];
    class Recording extends CollectionDecorator {
      override list(...args: Parameters<CollectionDecorator['list']>) {
        seen.push(args);
        return super.list(...args);
      }
    }
    // A recording layer over a layer that forwards reads, under another that forwards them.
    const recording = new DataSourceDecorator(
      new DataSourceDecorator(stack.dataSource, CollectionDecorator),
      Recording,
    );
    const outer = new DataSourceDecorator(recording, CollectionDecorator);
    const asked = filter();
    const projection = new Projection('id');
    expect(await outer.getCollection('books').list(caller, asked, projection)).toEqual([
      { id: 1 },
      { id: 3 },
    ]);
    expect(seen).toEqual([[caller, asked, projection]]);
    expect(seen[0]?.[1]).toBe(asked);
  });
});

describe('errors of layers that are not async functions', () => {
  it('come out of every layer as a rejected promise, never as a throw', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('nope', 'Equal', 1),
    });
    const aggregation = { operation: 'Count', field: 'nope' } as const;
    let layer: Collection | undefined = books(stack);
    let layers = 0;
    while (layer instanceof CollectionDecorator) {
      let listed: Promise<unknown> | undefined;
      let aggregated: Promise<unknown> | undefined;
      expect(() => {
        listed = (layer as Collection).list(caller, filter, new Projection('nope'));
        aggregated = (layer as Collection).aggregate(
          caller,
          filter,
          new Aggregation({ ...aggregation }),
        );
      }).not.toThrow();
      await expect(listed).rejects.toThrow(/nope/);
      await expect(aggregated).rejects.toThrow(/nope/);
      layer = layer.childCollection;
      layers += 1;
    }
    expect(layers).toBeGreaterThan(10);
  });
});

describe('validation remembered per schema version', () => {
  it('refuses a sort it accepted before once the field stops being sortable', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({ sort: new Sort({ field: 'price', ascending: true }) });
    await books(stack).list(caller, filter, new Projection('id'));

    stack.sortEmulate.getCollection('books').disableFieldSorting('price');
    await expect(books(stack).list(caller, filter, new Projection('id'))).rejects.toThrow(
      /not sortable/,
    );
  });

  it('refuses a condition it accepted before once the operator is not supported', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const filter = new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf('title', 'Equal', 'Dune'),
    });
    expect(await books(stack).list(caller, filter, new Projection('id'))).toEqual([{ id: 1 }]);

    stack.schema.getCollection('books').overrideSchema({
      fields: {
        ...stack.schema.getCollection('books').schema.fields,
        title: { type: 'Column', columnType: 'String', filterOperators: new Set() },
      },
    });
    await expect(books(stack).list(caller, filter, new Projection('id'))).rejects.toThrow(/title/);
  });

  it('does not remember a refused projection, and accepts it once the field exists', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const projection = new Projection('id', 'blurb');
    await expect(books(stack).list(caller, new PaginatedFilter(), projection)).rejects.toThrow(
      /blurb/,
    );
    await expect(books(stack).list(caller, new PaginatedFilter(), projection)).rejects.toThrow(
      /blurb/,
    );
    stack.earlyComputed.getCollection('books').registerComputed('blurb', {
      columnType: 'String',
      dependencies: ['title'],
      getValues: (records) => records.map((r) => `Read ${String(r.title)}`),
    });
    const records = await books(stack).list(caller, new PaginatedFilter(), projection);
    expect(records[0]).toEqual({ id: 1, blurb: 'Read Dune' });
  });

  it('refuses a projection it accepted before once a field is gone', async () => {
    const stack = new DecoratorStack(makeBookshop());
    const projection = new Projection('id', 'title');
    await books(stack).list(caller, new PaginatedFilter(), projection);

    const { title: _removed, ...fields } = stack.schema.getCollection('books').schema.fields;
    stack.schema.getCollection('books').overrideSchema({ fields });
    await expect(books(stack).list(caller, new PaginatedFilter(), projection)).rejects.toThrow(
      /title/,
    );
  });
});
