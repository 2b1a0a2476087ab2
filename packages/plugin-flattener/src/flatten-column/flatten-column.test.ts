import { Filter, type DataSource } from '@canopy/agent-core';
import { buildShop, caller, exposedFields, list, makeShop } from '../../test/shop';
import { flattenColumn } from './flatten-column';
import type { FlattenColumnOptions } from './flatten-column-options';

function flatten(options: FlattenColumnOptions, extra: Parameters<typeof buildShop>[0] = () => {}) {
  return buildShop((customizer) => {
    customizer.customizeCollection('customers', (customers) =>
      customers.use(flattenColumn, options),
    );
    extra(customizer);
  });
}

const customers = (dataSource: DataSource) => dataSource.getCollection('customers');

describe('flattenColumn through the whole customizer stack (in-memory source)', () => {
  it('exposes level-1 keys, keeping deeper objects as one object field and enums as Enum', async () => {
    const dataSource = await flatten({ columnName: 'address' });
    const fields = customers(dataSource).schema.fields;
    expect(Object.keys(fields)).toEqual([
      'id',
      'name',
      'address',
      'companyId',
      'company',
      'address@@@city',
      'address@@@kind',
      'address@@@geo',
    ]);
    expect(fields['address@@@city']).toMatchObject({ columnType: 'String', isReadOnly: false });
    expect(fields['address@@@kind']).toMatchObject({
      columnType: 'Enum',
      enumValues: ['home', 'work'],
    });
    expect(fields['address@@@geo']).toMatchObject({ columnType: { lat: 'Number', lng: 'Number' } });
  });

  it('reads nested values at level 2, null where a key or the whole object is missing', async () => {
    const dataSource = await flatten({ columnName: 'address', level: 2 });
    expect(
      await list(dataSource, 'customers', [
        'id',
        'address@@@city',
        'address@@@kind',
        'address@@@geo@@@lat',
        'address@@@geo@@@lng',
      ]),
    ).toEqual([
      {
        id: 1,
        'address@@@city': 'Lyon',
        'address@@@kind': 'home',
        'address@@@geo@@@lat': 45.76,
        'address@@@geo@@@lng': 4.83,
      },
      {
        id: 2,
        'address@@@city': 'Boston',
        'address@@@kind': 'work',
        'address@@@geo@@@lat': null,
        'address@@@geo@@@lng': null,
      },
      {
        id: 3,
        'address@@@city': null,
        'address@@@kind': null,
        'address@@@geo@@@lat': null,
        'address@@@geo@@@lng': null,
      },
    ]);
  });

  it('flattens only included paths (`.` or `:`), ignoring level, minus exact exclusions', async () => {
    const dataSource = await flatten({
      columnName: 'address',
      level: 1,
      include: ['geo.lat', 'geo:lng', 'geo', 'city'],
      exclude: ['city'],
    });
    expect(
      Object.keys(exposedFields(dataSource, 'customers')).filter((n) => n.includes('@@@')),
    ).toEqual(['address@@@geo@@@lat', 'address@@@geo@@@lng', 'address@@@geo']);
  });

  it('excluding a parent path keeps its children', async () => {
    const dataSource = await flatten({ columnName: 'address', level: 2, exclude: ['geo', 'kind'] });
    expect(
      Object.keys(exposedFields(dataSource, 'customers')).filter((n) => n.includes('@@@')),
    ).toEqual(['address@@@city', 'address@@@geo@@@lat', 'address@@@geo@@@lng']);
  });

  it('creates records with only the provided nested keys', async () => {
    const dataSource = await flatten({ columnName: 'address', level: 2 });
    const [created] = await customers(dataSource).create(caller, [
      { name: 'Dee', 'address@@@city': 'Nantes', 'address@@@geo@@@lat': 47.2 },
    ]);
    const stored = await list(dataSource, 'customers', ['address', 'address@@@geo@@@lat'], {
      conditionTree: { field: 'id', operator: 'Equal', value: created?.id },
    });
    expect(stored).toEqual([
      { address: { city: 'Nantes', geo: { lat: 47.2 } }, 'address@@@geo@@@lat': 47.2 },
    ]);
  });

  it('merges flattened keys into an address given on create', async () => {
    const dataSource = await flatten({ columnName: 'address' });
    const [created] = await customers(dataSource).create(caller, [
      { name: 'Eve', address: { city: 'Brest', kind: 'home' }, 'address@@@kind': 'work' },
    ]);
    const [stored] = await list(dataSource, 'customers', ['address'], {
      conditionTree: { field: 'id', operator: 'Equal', value: created?.id },
    });
    expect(stored).toEqual({ address: { city: 'Brest', kind: 'work' } });
  });

  it('updates one nested key on many records at once, leaving every sibling intact', async () => {
    const dataSource = await flatten({ columnName: 'address', level: 2 });
    await customers(dataSource).update(
      caller,
      new Filter({ conditionTree: { field: 'id', operator: 'In', value: [1, 2, 3] } }),
      { 'address@@@geo@@@lat': 0, name: 'Renamed' },
    );
    expect(await list(dataSource, 'customers', ['id', 'name', 'address'])).toEqual([
      {
        id: 1,
        name: 'Renamed',
        address: { city: 'Lyon', kind: 'home', geo: { lat: 0, lng: 4.83 } },
      },
      { id: 2, name: 'Renamed', address: { city: 'Boston', kind: 'work', geo: { lat: 0 } } },
      { id: 3, name: 'Renamed', address: { geo: { lat: 0 } } },
    ]);
  });

  it('updates each group of equal merged values once, and only once when all are equal', async () => {
    const source = makeShop();
    const dataSource = await buildShop(
      (customizer) =>
        customizer.customizeCollection('customers', (c) =>
          c.use(flattenColumn, { columnName: 'address' }),
        ),
      source,
    );
    const updates: unknown[] = [];
    const raw = source.getCollection('customers');
    const update = raw.update.bind(raw);
    raw.update = async (...args) => {
      updates.push(args[2]);
      return update(...args);
    };
    await customers(dataSource).update(
      caller,
      new Filter({ conditionTree: { field: 'id', operator: 'In', value: [1, 2] } }),
      { 'address@@@city': 'Rome' },
    );
    // Two different merged values: one update per group, then the main patch left empty.
    expect(updates).toEqual([
      { address: { city: 'Rome', kind: 'home', geo: { lat: 45.76, lng: 4.83 } } },
      { address: { city: 'Rome', kind: 'work' } },
      {},
    ]);
    updates.length = 0;
    await customers(dataSource).update(
      caller,
      new Filter({ conditionTree: { field: 'id', operator: 'In', value: [1, 2] } }),
      { 'address@@@city': 'Oslo', 'address@@@kind': 'home', 'address@@@geo': { lat: 1, lng: 2 } },
    );
    expect(updates).toEqual([{ address: { city: 'Oslo', kind: 'home', geo: { lat: 1, lng: 2 } } }]);
  });

  it('merges flattened keys into an address given in the same update', async () => {
    const dataSource = await flatten({ columnName: 'address' });
    await customers(dataSource).update(
      caller,
      new Filter({ conditionTree: { field: 'id', operator: 'Equal', value: 1 } }),
      { address: { city: 'Nice' }, 'address@@@kind': 'work' },
    );
    const [stored] = await list(dataSource, 'customers', ['address'], {
      conditionTree: { field: 'id', operator: 'Equal', value: 1 },
    });
    expect(stored).toEqual({ address: { city: 'Nice', kind: 'work' } });
  });

  it('validates flattened enum values like any Enum field', async () => {
    const dataSource = await flatten({ columnName: 'address' });
    await expect(
      customers(dataSource).create(caller, [{ name: 'Fay', 'address@@@kind': 'castle' }]),
    ).rejects.toMatchObject({ family: 'validation' });
  });

  it('keeps the fields read-only with readonly: true', async () => {
    const dataSource = await flatten({ columnName: 'address', readonly: true });
    expect(customers(dataSource).schema.fields['address@@@city']).toMatchObject({
      isReadOnly: true,
    });
    await expect(
      customers(dataSource).create(caller, [{ name: 'Gus', 'address@@@city': 'Metz' }]),
    ).rejects.toThrow("The 'customers.address@@@city' field is read-only and cannot be written.");
  });

  it('keeps the fields read-only when the column is read-only', async () => {
    const source = makeShop();
    const column = source.getCollection('customers').schema.fields.address;
    if (column?.type === 'Column') column.isReadOnly = true;
    const dataSource = await buildShop(
      (customizer) =>
        customizer.customizeCollection('customers', (c) =>
          c.use(flattenColumn, { columnName: 'address' }),
        ),
      source,
    );
    expect(customers(dataSource).schema.fields['address@@@city']).toMatchObject({
      isReadOnly: true,
    });
  });

  it('is neither filterable nor sortable by default, and emulation can be added', async () => {
    const plain = await flatten({ columnName: 'address' });
    expect(customers(plain).schema.fields['address@@@city']).toMatchObject({
      isSortable: false,
      filterOperators: new Set(),
    });
    const emulated = await flatten({ columnName: 'address' }, (customizer) =>
      customizer.customizeCollection('customers', (c) =>
        c.emulateFieldFiltering('address@@@city').emulateFieldSorting('address@@@city'),
      ),
    );
    expect(
      await list(emulated, 'customers', ['id'], {
        conditionTree: { field: 'address@@@city', operator: 'Present' },
        sort: [{ field: 'address@@@city', ascending: false }],
      }),
    ).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('refuses direct writes that bypass the Before hooks', async () => {
    const dataSource = await flatten({ columnName: 'address' }, (customizer) =>
      customizer.customizeCollection('customers', (c) =>
        c.addHook('After', 'Create', async (context) => {
          await context.collection.update(
            { conditionTree: { field: 'id', operator: 'Equal', value: 1 } },
            { 'address@@@city': 'Caen' },
          );
        }),
      ),
    );
    await expect(customers(dataSource).create(caller, [{ name: 'Hal' }])).rejects.toThrow(
      "Cannot write on computed field 'address@@@city'. Did you inhibit BeforeHooks?",
    );
  });
});
