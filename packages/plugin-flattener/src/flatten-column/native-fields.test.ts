import type { InMemoryDataSource } from '@canopy/agent-core';
import { buildShop, list, makeShop } from '../../test/shop';
import { flattenColumn } from './flatten-column';
import type { FlattenColumnOptions } from './flatten-column-options';

/** The shop with `customers.city_index`, a native copy of `address.city` (like a generated column). */
function shopWithNativeCity(): InMemoryDataSource {
  const source = makeShop();
  const customers = source.getCollection('customers');
  customers.schema.fields.city_index = {
    type: 'Column',
    columnType: 'String',
    isReadOnly: true,
    isSortable: true,
    filterOperators: new Set(['Equal', 'In', 'Present', 'Contains']),
  };
  for (const record of customers.records) {
    record.city_index = (record.address as { city?: string } | null)?.city ?? null;
  }
  return source;
}

function start(options: Partial<FlattenColumnOptions>) {
  return buildShop(
    (customizer) =>
      customizer.customizeCollection('customers', (customers) =>
        customers.use(flattenColumn, { columnName: 'address', ...options }),
      ),
    shopWithNativeCity(),
  );
}

describe('flattenColumn nativeFields: filtering and sorting through a native column', () => {
  it('gives the field the native operators and sorting, and hides the native column', async () => {
    const dataSource = await start({ nativeFields: { city: 'city_index' } });
    const fields = dataSource.getCollection('customers').schema.fields;
    expect(fields.city_index).toBeUndefined();
    expect(fields['address@@@city']).toMatchObject({
      isSortable: true,
      // Blank and Missing are derived from Present by the customizer's equivalence layer.
      filterOperators: new Set(['Equal', 'In', 'Present', 'Blank', 'Missing', 'Contains']),
    });
    expect(
      await list(dataSource, 'customers', ['id', 'address@@@city'], {
        conditionTree: { field: 'address@@@city', operator: 'Contains', value: 'o' },
        sort: [{ field: 'address@@@city', ascending: false }],
      }),
    ).toEqual([
      { id: 1, 'address@@@city': 'Lyon' },
      { id: 2, 'address@@@city': 'Boston' },
    ]);
  });

  it('only takes the native operators the flattened type allows (Enum from a String column)', async () => {
    const dataSource = await start({ nativeFields: { kind: 'city_index' } });
    const kind = dataSource.getCollection('customers').schema.fields['address@@@kind'];
    expect(kind).toMatchObject({
      filterOperators: new Set(['Equal', 'In', 'Present', 'Blank', 'Missing']),
    });
  });

  it.each([
    [
      { 'geo.alt': 'city_index' },
      "'customers.address' cannot be flattened: options.nativeFields names 'geo.alt', which is not a flattened path (flattened paths are: 'city', 'kind', 'geo').",
    ],
    [
      { city: 'town' },
      "options.nativeFields maps 'city' to 'customers.town', which is no such field; a column of type \"String\" holding the same value is required.",
    ],
    [
      { city: 'company' },
      "options.nativeFields maps 'city' to 'customers.company', which is a ManyToOne relation;",
    ],
    [
      { city: 'companyId' },
      'options.nativeFields maps \'city\' to \'customers.companyId\', which is a column of type "Number"; a column of type "String" holding the same value is required.',
    ],
    [
      'city_index',
      "options.nativeFields must map paths to native column names, like { 'geo.lat': 'geo_lat' }, got \"city_index\".",
    ],
  ])('refuses nativeFields %p', async (nativeFields, message) => {
    await expect(start({ nativeFields: nativeFields as never })).rejects.toThrow(message);
  });
});
