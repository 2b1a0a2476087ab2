import { buildShop, makeShop } from '../../test/shop';
import { isFlattenerError } from '../flattener-error';
import { flattenColumn } from './flatten-column';

function start(options: unknown, collection = 'customers') {
  return buildShop((customizer) =>
    customizer.customizeCollection(collection, (c) => c.use(flattenColumn, options as never)),
  );
}

describe('flattenColumn refuses misused options at start', () => {
  it.each([
    [
      'a missing columnName',
      undefined,
      'FLATTENER_MISSING_OPTION',
      "flattenColumn on 'customers': options.columnName is required",
    ],
    [
      'an unknown column',
      { columnName: 'adress' },
      'FLATTENER_UNKNOWN_FIELD',
      "'customers.adress' cannot be flattened (no such column). Columns of 'customers' are: ['address', 'companyId', 'id', 'name'].",
    ],
    [
      'a relation',
      { columnName: 'company' },
      'FLATTENER_UNKNOWN_FIELD',
      "'customers.company' cannot be flattened (it is a ManyToOne relation, not a column).",
    ],
    [
      'a primitive column',
      { columnName: 'name' },
      'FLATTENER_UNSUPPORTED_TYPE',
      "'customers.name' cannot be flattened (primitive type 'String' not supported).",
    ],
    [
      'a primitive column with a columnType',
      { columnName: 'name', columnType: { a: 'String' } },
      'FLATTENER_UNSUPPORTED_TYPE',
      "'customers.name' cannot be flattened (primitive type 'String' cannot hold objects",
    ],
    [
      'a level below 1',
      { columnName: 'address', level: 0 },
      'FLATTENER_INVALID_OPTION',
      "'customers.address' cannot be flattened: options.level must be greater than 0",
    ],
    [
      'a fractional level',
      { columnName: 'address', level: 1.5 },
      'FLATTENER_INVALID_OPTION',
      'options.level must be greater than 0 (a whole number of key levels), got 1.5.',
    ],
    [
      'an unknown include path',
      { columnName: 'address', include: ['geo.alt'] },
      'FLATTENER_UNKNOWN_PATH',
      "'customers.address' cannot be flattened: cannot add field 'address@@@geo@@@alt' (dependency not found: options.include names 'geo.alt', which is not a path of the column type; paths are: 'city', 'kind', 'geo.lat', 'geo.lng').",
    ],
    [
      'an include path through a leaf',
      { columnName: 'address', include: ['city.name'] },
      'FLATTENER_UNKNOWN_PATH',
      "cannot add field 'address@@@city@@@name' (dependency not found",
    ],
    [
      'an unknown exclude path',
      { columnName: 'address', exclude: ['zip'] },
      'FLATTENER_UNKNOWN_PATH',
      "'customers.address' cannot be flattened: cannot exclude field 'address@@@zip' (dependency not found: options.exclude names 'zip'",
    ],
    [
      'an include that is not a list',
      { columnName: 'address', include: 'city' },
      'FLATTENER_INVALID_OPTION',
      '\'customers.address\': options.include must be a list of non-empty strings, got "city".',
    ],
    [
      'a non-object columnType',
      { columnName: 'address', columnType: 'String' },
      'FLATTENER_INVALID_OPTION',
      '\'customers.address\' cannot be flattened: options.columnType is invalid (it must be an object of key → type, got "String")',
    ],
    [
      'a columnType with an unknown type',
      { columnName: 'address', columnType: { geo: { lat: 'Float' } } },
      'FLATTENER_INVALID_OPTION',
      "options.columnType is invalid ('geo.lat' has unknown type 'Float')",
    ],
    [
      'exclusions that leave nothing',
      { columnName: 'address', exclude: ['city', 'kind', 'geo'] },
      'FLATTENER_NOTHING_TO_FLATTEN',
      "'customers.address' cannot be flattened (no fields match level/include/exclude).",
    ],
    [
      'a non-boolean readonly',
      { columnName: 'address', readonly: 'yes' },
      'FLATTENER_INVALID_OPTION',
      '\'customers.address\': options.readonly must be true or false, got "yes".',
    ],
  ])('%s', async (_case, options, code, message) => {
    const failure = start(options);
    await expect(failure).rejects.toThrow(message);
    await failure.catch((error: unknown) =>
      expect(isFlattenerError(error, code as never)).toBe(true),
    );
  });

  it('refuses an array column', async () => {
    const source = makeShop();
    source.getCollection('customers').schema.fields.tags = {
      type: 'Column',
      columnType: ['String'],
      filterOperators: new Set(),
    };
    await expect(
      buildShop(
        (customizer) =>
          customizer.customizeCollection('customers', (c) =>
            c.use(flattenColumn, { columnName: 'tags' }),
          ),
        source,
      ),
    ).rejects.toThrow("'customers.tags' cannot be flattened (array not supported).");
  });

  it('refuses a Json column without columnType, pointing to flattenJsonColumn', async () => {
    await expect(start({ columnName: 'delivery' }, 'orders')).rejects.toThrow(
      "'orders.delivery' cannot be flattened using flattenColumn please use flattenJsonColumn",
    );
  });
});
