import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_TYPES, typeCheck } from '../../test/type-check';
import { generateTypings } from '../schema/typings-generator';
import { ShopDataSource } from '../schema/shop-fixture';

/**
 * Users' customization code compiled by tsc against typings generated from the customized data
 * source: names of collections and fields are checked.
 */
describe('typed customizations', () => {
  const directory = mkdtempSync(join(tmpdir(), 'canopy-typed-'));
  const agentModule = join(__dirname, 'index').replace(/\\/g, '/');
  let errors: Record<string, string[]>;

  beforeAll(() => {
    writeFileSync(join(directory, 'typings.ts'), generateTypings(new ShopDataSource(), 2));
    const header = [
      `import { createAgent } from '${agentModule}';`,
      "import type { Schema } from './typings';",
      'const agent = createAgent<Schema>();',
    ];
    const files: Record<string, string[]> = {
      'valid.ts': [
        "agent.customizeCollection('orders', (orders) =>",
        '  orders',
        "    .addSegment('Big', { field: 'amount', operator: 'GreaterThan', value: 100 })",
        "    .addField('customerEmail', {",
        "      columnType: 'String',",
        "      dependencies: ['customer:email', 'amount'],",
        '      getValues: (records) => records.map((record) => record.customer),',
        '    })',
        "    .addHook('Before', 'Create', (context) => { context.data.forEach((record) => record.amount); })",
        "    .removeField('status'),",
        ');',
        "agent.removeCollection('customers');",
      ],
      'misspelt-field.ts': [
        "agent.customizeCollection('orders', (orders) =>",
        "  orders.addField('total', { columnType: 'Number', dependencies: ['amont'], getValues: () => [] }),",
        ');',
      ],
      'misspelt-after-chaining.ts': [
        "agent.customizeCollection('orders', (orders) =>",
        "  orders.disableCount().addSegment('Big', { field: 'amount', operator: 'Present' }).removeField('amont'),",
        ');',
      ],
      'misspelt-collection.ts': ["agent.customizeCollection('ordres', () => {});"],
      'misspelt-path.ts': [
        "agent.customizeCollection('orders', (orders) => orders.importField('email', { path: 'customer:mail' }));",
      ],
    };
    const code = Object.entries(files).map(([name, lines]) => [
      name,
      [...header, ...lines].join('\n'),
    ]);
    errors = typeCheck(directory, Object.fromEntries(code), NODE_TYPES);
  }, 60_000);

  it('compiles customization code that uses existing names', () => {
    expect(errors['valid.ts']).toEqual([]);
  });

  it('rejects a misspelt field, collection or relation path', () => {
    expect(errors['misspelt-field.ts']?.join('\n')).toContain('"amont"');
    expect(errors['misspelt-after-chaining.ts']?.join('\n')).toContain('"amont"');
    expect(errors['misspelt-collection.ts']?.join('\n')).toContain('"ordres"');
    expect(errors['misspelt-path.ts']?.join('\n')).toContain('"customer:mail"');
  });
});
