import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '@canopy/agent-core';
import { NODE_TYPES, typeCheck } from './type-check';
import { customize, shopDataSource } from './typed-project/customizations';
import type { Schema } from './typed-project/typings';

const project = join(__dirname, 'typed-project');
const directory = mkdtempSync(join(tmpdir(), 'canopy-typed-project-'));

/**
 * A project that renames, removes, imports and computes fields and removes a collection
 * (`typed-project/customizations.ts`): its typings are generated from those customizations by
 * `updateTypesOnFileSystem`, and the same code must then compile against them.
 */
describe('a typed project with renamed, removed, imported and computed fields', () => {
  let generated: string;
  let errors: Record<string, string[]>;

  beforeAll(async () => {
    const agent = customize(
      createAgent<Schema>({
        authSecret: 'typed-project-secret',
        envSecret: 'ab'.repeat(32),
        schemaPath: join(directory, '.canopy-schema.json'),
        loggerLevel: 'Error',
      }).addDataSource(shopDataSource()),
    );
    await agent.updateTypesOnFileSystem(join(directory, 'typings.ts'), 2);
    generated = readFileSync(join(directory, 'typings.ts'), 'utf8');
    const header = "import type { ExportedRecord, Schema } from './typings';\n";
    const misuse = (body: string) =>
      `${header}import type { Agent } from '@canopy/agent-core';\n` +
      `export const f = (agent: Agent<Schema>) => ${body};\n`;
    errors = typeCheck(
      directory,
      {
        'customizations.ts': readFileSync(join(project, 'customizations.ts'), 'utf8'),
        'exported-name-in-customizer.ts': misuse(
          "agent.customizeCollection('customers', (c) => c.addFieldValidation('firstName', 'Present'))",
        ),
        'unknown-field.ts': misuse(
          "agent.customizeCollection('orders', (o) => o.removeField('nope'))",
        ),
        'unknown-collection.ts': misuse("agent.removeCollection('audit_entry')"),
        'internal-name-in-record.ts': `${header}export const c: Partial<ExportedRecord<'customers'>> = { first_name: 'Ada' };\n`,
        'hidden-collection-record.ts': `${header}export type A = ExportedRecord<'audit_entries'>;\n`,
      },
      {
        ...NODE_TYPES,
        resolveJsonModule: true,
        paths: { '@canopy/agent-core': [join(__dirname, '../src/index.ts')] },
      },
    );
  }, 60_000);

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  // UPDATE_TYPED_PROJECT=1 rewrites the committed file after a change of the customizations.
  it('generates the committed typings', () => {
    if (process.env.UPDATE_TYPED_PROJECT === '1')
      writeFileSync(join(project, 'typings.ts'), generated);
    expect(generated).toBe(readFileSync(join(project, 'typings.ts'), 'utf8'));
  });

  it('is the typed customization example of the README', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const code = readFileSync(join(project, 'customizations.ts'), 'utf8');
    expect(readme).toContain('```ts\n' + code + '```');
  });

  it('type-checks the customization code against the typings generated from it', () => {
    expect(errors['customizations.ts']).toEqual([]);
  });

  it('names fields before renaming in the customizer and after it in exported records', () => {
    expect(errors['exported-name-in-customizer.ts']?.join('\n')).toContain('"firstName"');
    expect(errors['internal-name-in-record.ts']?.join('\n')).toContain("'first_name'");
  });

  it('still rejects names that exist nowhere, and hidden collections in exported records', () => {
    expect(errors['unknown-field.ts']?.join('\n')).toContain('"nope"');
    expect(errors['unknown-collection.ts']?.join('\n')).toContain('"audit_entry"');
    expect(errors['hidden-collection-record.ts']?.join('\n')).toContain('"audit_entries"');
  });
});
