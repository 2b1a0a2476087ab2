import { Filter } from '@canopy/agent-core';
import { buildShop, caller, exposedFields, list, makeShop } from '../../test/shop';
import { isFlattenerError } from '../flattener-error';
import { flattenJsonColumn } from './flatten-json-column';

const delivery = { carrier: 'String', address: { city: 'String', zip: 'String' } } as const;

function start(options: unknown) {
  return buildShop((customizer) =>
    customizer.customizeCollection('orders', (orders) =>
      orders.use(flattenJsonColumn, options as never),
    ),
  );
}

describe('flattenJsonColumn through the whole customizer stack (in-memory source)', () => {
  it('flattens every leaf of the given shape and hides the original column', async () => {
    const dataSource = await start({ columnName: 'delivery', columnType: delivery });
    expect(exposedFields(dataSource, 'orders')).toEqual({
      id: '"Number"',
      reference: '"String"',
      customerId: '"Number"',
      customer: 'ManyToOne',
      'delivery@@@carrier': '"String"',
      'delivery@@@address@@@city': '"String"',
      'delivery@@@address@@@zip': '"String"',
    });
    expect(
      await list(dataSource, 'orders', ['id', 'delivery@@@carrier', 'delivery@@@address@@@city']),
    ).toEqual([
      { id: 1, 'delivery@@@carrier': 'UPS', 'delivery@@@address@@@city': 'Lyon' },
      { id: 2, 'delivery@@@carrier': 'DHL', 'delivery@@@address@@@city': 'Paris' },
      { id: 3, 'delivery@@@carrier': 'UPS', 'delivery@@@address@@@city': null },
    ]);
  });

  it('keeps the original column when asked, and honours level', async () => {
    const dataSource = await start({
      columnName: 'delivery',
      columnType: delivery,
      level: 1,
      keepOriginalColumn: true,
    });
    const fields = exposedFields(dataSource, 'orders');
    expect(fields.delivery).toBe('"Json"');
    expect(fields['delivery@@@address']).toBe('{"city":"String","zip":"String"}');
  });

  it('writes through the hidden column: create, and a partial update keeping other keys', async () => {
    const source = makeShop();
    const dataSource = await buildShop(
      (customizer) =>
        customizer.customizeCollection('orders', (orders) =>
          orders.use(flattenJsonColumn, { columnName: 'delivery', columnType: delivery }),
        ),
      source,
    );
    const orders = dataSource.getCollection('orders');
    await orders.create(caller, [{ reference: 'D-4', 'delivery@@@address@@@zip': '35000' }]);
    await orders.update(caller, new Filter(), { 'delivery@@@address@@@city': 'Rennes' });
    expect(source.getCollection('orders').records.map((r) => r.delivery)).toEqual([
      { carrier: 'UPS', address: { city: 'Rennes', zip: '69001' }, weight: 2 },
      { carrier: 'DHL', address: { city: 'Rennes', zip: '75001' }, weight: 5 },
      { carrier: 'UPS', address: { city: 'Rennes' } },
      { address: { city: 'Rennes', zip: '35000' } },
    ]);
  });

  it.each([
    [
      'a missing columnType',
      { columnName: 'delivery' },
      'FLATTENER_MISSING_OPTION',
      "flattenJsonColumn on 'orders.delivery': options.columnName and options.columnType are required",
    ],
    [
      'a missing columnName',
      { columnType: delivery },
      'FLATTENER_MISSING_OPTION',
      "flattenJsonColumn on 'orders': options.columnName and options.columnType are required",
    ],
    [
      'a column that is not Json',
      { columnName: 'reference', columnType: delivery },
      'FLATTENER_UNSUPPORTED_TYPE',
      '\'orders.reference\' cannot be flattened with flattenJsonColumn (only available on primitive Json columns, this one is "String"): prefer flattenColumn otherwise.',
    ],
    [
      'an unknown column',
      { columnName: 'shipping', columnType: delivery },
      'FLATTENER_UNKNOWN_FIELD',
      "'orders.shipping' cannot be flattened (no such column).",
    ],
    [
      'a non-object columnType',
      { columnName: 'delivery', columnType: ['String'] },
      'FLATTENER_INVALID_OPTION',
      "'orders.delivery' cannot be flattened: options.columnType must be defined as json object describing the values",
    ],
    [
      'an empty columnType',
      { columnName: 'delivery', columnType: {} },
      'FLATTENER_INVALID_OPTION',
      '(it has no key)',
    ],
    [
      'a level below 1',
      { columnName: 'delivery', columnType: delivery, level: -1 },
      'FLATTENER_INVALID_OPTION',
      "'orders.delivery' cannot be flattened: options.level must be greater than 0",
    ],
  ])('refuses %s at start', async (_case, options, code, message) => {
    const failure = start(options);
    await expect(failure).rejects.toThrow(message);
    await failure.catch((error: unknown) =>
      expect(isFlattenerError(error, code as never)).toBe(true),
    );
  });
});
