import { Filter } from '@canopy/agent-core';
import { buildShop, caller, exposedFields, list, makeShop } from '../../test/shop';
import { isFlattenerError } from '../flattener-error';
import { flattenRelation } from './flatten-relation';

function start(options: unknown) {
  return buildShop((customizer) =>
    customizer.customizeCollection('orders', (orders) =>
      orders.use(flattenRelation, options as never),
    ),
  );
}

describe('flattenRelation through the whole customizer stack (in-memory source)', () => {
  it('imports every column of the target of a two-hop path, typed like the target', async () => {
    const dataSource = await start({ relationName: 'customer:company' });
    const fields = dataSource.getCollection('orders').schema.fields;
    expect(
      Object.keys(exposedFields(dataSource, 'orders')).filter((n) => n.includes('@@@')),
    ).toEqual([
      'customer@@@company@@@id',
      'customer@@@company@@@name',
      'customer@@@company@@@country',
    ]);
    expect(fields['customer@@@company@@@country']).toMatchObject({
      columnType: 'Enum',
      enumValues: ['FR', 'US'],
      isSortable: true,
      isReadOnly: false,
    });
    expect(fields['customer@@@company@@@id']).toMatchObject({ isReadOnly: true });
  });

  it('reads, filters and sorts on the imported fields like on the target columns', async () => {
    const dataSource = await start({ relationName: 'customer:company', include: ['name'] });
    expect(await list(dataSource, 'orders', ['id', 'customer@@@company@@@name'])).toEqual([
      { id: 1, 'customer@@@company@@@name': 'Bistro' },
      { id: 2, 'customer@@@company@@@name': 'Acme' },
      // No company: the imported value is null, as the target column would read.
      { id: 3, 'customer@@@company@@@name': null },
    ]);
    expect(
      await list(dataSource, 'orders', ['id'], {
        conditionTree: { field: 'customer@@@company@@@name', operator: 'StartsWith', value: 'Bis' },
      }),
    ).toEqual([{ id: 1 }]);
    const imported = dataSource.getCollection('orders').schema.fields['customer@@@company@@@name'];
    const target = dataSource.getCollection('companies').schema.fields.name;
    expect(imported?.type === 'Column' && [...imported.filterOperators].sort()).toEqual(
      target?.type === 'Column' && [...target.filterOperators].sort(),
    );
    expect(
      await list(dataSource, 'orders', ['id'], {
        conditionTree: { field: 'customer@@@company@@@name', operator: 'Present' },
        sort: [{ field: 'customer@@@company@@@name', ascending: true }],
      }),
    ).toEqual([{ id: 2 }, { id: 1 }]);
  });

  it('writes through nested relation writes, on update and on create', async () => {
    const source = makeShop();
    const dataSource = await buildShop(
      (customizer) =>
        customizer.customizeCollection('orders', (orders) =>
          orders.use(flattenRelation, { relationName: 'customer', include: ['name'] }),
        ),
      source,
    );
    const orders = dataSource.getCollection('orders');
    await orders.update(
      caller,
      new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: 2 } }),
      { 'customer@@@name': 'Robert' },
    );
    const [created] = await orders.create(caller, [{ reference: 'E-5', 'customer@@@name': 'Zed' }]);
    expect(source.getCollection('customers').records.map((r) => r.name)).toEqual([
      'Ada',
      'Robert',
      'Cy',
      'Zed',
    ]);
    expect(
      await list(dataSource, 'orders', ['customer@@@name'], {
        conditionTree: { field: 'id', operator: 'Equal', value: created?.id },
      }),
    ).toEqual([{ 'customer@@@name': 'Zed' }]);
  });

  it('imports read-only fields with readonly: true', async () => {
    const dataSource = await start({
      relationName: 'customer',
      exclude: ['address'],
      readonly: true,
    });
    const fields = dataSource.getCollection('orders').schema.fields;
    expect(fields['customer@@@name']).toMatchObject({ isReadOnly: true });
    expect(fields['customer@@@address']).toBeUndefined();
  });

  it.each([
    [
      'a missing relationName',
      {},
      'FLATTENER_MISSING_OPTION',
      "flattenRelation on 'orders': options.relationName is required",
    ],
    [
      'an unknown relation',
      { relationName: 'buyer' },
      'FLATTENER_UNKNOWN_FIELD',
      "Relation 'orders.buyer' not found. ManyToOne and OneToOne relations of 'orders' are: ['customer'].",
    ],
    [
      'an unknown second hop',
      { relationName: 'customer:employer' },
      'FLATTENER_UNKNOWN_FIELD',
      "Relation 'customers.employer' not found. ManyToOne and OneToOne relations of 'customers' are: ['company'].",
    ],
    [
      'a column',
      { relationName: 'reference' },
      'FLATTENER_UNSUPPORTED_TYPE',
      "'orders.reference' is a column, not a relation",
    ],
    [
      'an unknown included column',
      { relationName: 'customer', include: ['email'] },
      'FLATTENER_UNKNOWN_PATH',
      "'orders.customer' cannot be flattened: 'email' is not a column of 'customers'. Its columns are: ['address', 'companyId', 'id', 'name'].",
    ],
    [
      'exclusions that leave nothing',
      { relationName: 'customer:company', exclude: ['id', 'name', 'country'] },
      'FLATTENER_NOTHING_TO_FLATTEN',
      "'orders.customer:company' cannot be flattened (no columns of 'companies' match include/exclude).",
    ],
  ])('refuses %s at start', async (_case, options, code, message) => {
    const failure = start(options);
    await expect(failure).rejects.toThrow(message);
    await failure.catch((error: unknown) =>
      expect(isFlattenerError(error, code as never)).toBe(true),
    );
  });

  it('refuses a to-many relation', async () => {
    const source = makeShop();
    const customers = source.getCollection('customers').schema.fields;
    customers.orders = {
      type: 'OneToMany',
      foreignCollection: 'orders',
      originKey: 'customerId',
      originKeyTarget: 'id',
    };
    await expect(
      buildShop(
        (customizer) =>
          customizer.customizeCollection('customers', (c) =>
            c.use(flattenRelation, { relationName: 'orders' }),
          ),
        source,
      ),
    ).rejects.toThrow(
      "'customers.orders' is not a ManyToOne or OneToOne relation (it is OneToMany): only to-one relations can be flattened.",
    );
  });

  it('passes an explicit readonly: false to importField, which refuses it on a read-only column', async () => {
    await expect(start({ relationName: 'customer', readonly: false })).rejects.toThrow(
      'Readonly option should not be false because the field "customer:id" is not writable',
    );
  });
});
