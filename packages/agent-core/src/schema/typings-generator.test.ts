import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { typeCheck } from '../../test/type-check';
import { ShopDataSource } from './shop-fixture';
import { generateTypings } from './typings-generator';

const directory = mkdtempSync(join(tmpdir(), 'canopy-typings-'));

/** Compiles files next to the generated typings, without node's types. */
function compile(files: Record<string, string>): Record<string, string[]> {
  return typeCheck(directory, files, { types: [], lib: ['lib.es2022.d.ts'] });
}

describe('generateTypings', () => {
  const typings = generateTypings(new ShopDataSource(), 2);

  beforeAll(() => {
    writeFileSync(join(directory, 'typings.ts'), typings);
  });

  it('describes plain columns, to-one relations and flat paths, sorted', () => {
    expect(typings).toContain(
      [
        "  'orders': {",
        '    plain: {',
        "      'amount': number;",
        "      'customer_id': number;",
        "      'id': number;",
        "      'status': 'pending' | 'shipped';",
        '    };',
        '    nested: {',
        "      'customer': Schema['customers']['plain'] & Schema['customers']['nested'];",
        '    };',
        '    flat: {',
        "      'customer:email': string;",
        "      'customer:id': number;",
        '    };',
        '  };',
      ].join('\n'),
    );
    expect(generateTypings(new ShopDataSource(), 2)).toBe(typings);
  });

  it('stops flat paths at the maximum depth', () => {
    expect(generateTypings(new ShopDataSource(), 0)).not.toContain("'customer:email'");
  });

  it('type-checks customization code with tsc and rejects a misspelt field', () => {
    const errors = compile({
      'valid.ts': [
        "import type { CollectionName, CollectionRecord, FieldName } from './typings';",
        "const collection: CollectionName = 'orders';",
        "const fields: FieldName<'orders'>[] = ['amount', 'status', 'customer:email'];",
        "const record: CollectionRecord<'orders'> = {",
        "  id: 1, amount: 3, customer_id: 1, status: 'shipped',",
        "  customer: { id: 1, email: 'ada@example.com' },",
        '};',
        'export { collection, fields, record };',
      ].join('\n'),
      'misspelt.ts': [
        "import type { FieldName } from './typings';",
        "export const field: FieldName<'orders'> = 'amont';",
      ].join('\n'),
      'wrong-enum.ts': [
        "import type { CollectionRecord } from './typings';",
        "export const status: CollectionRecord<'orders'>['status'] = 'lost';",
      ].join('\n'),
    });
    expect(errors['valid.ts']).toEqual([]);
    expect(errors['misspelt.ts']).toHaveLength(1);
    expect(errors['misspelt.ts']?.[0]).toContain('"amont"');
    expect(errors['wrong-enum.ts']?.[0]).toContain('"lost"');
  });
});
