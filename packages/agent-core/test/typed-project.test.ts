import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { createAgent } from '@canopy/agent-core';
import { customize, shopDataSource } from './typed-project/customizations';
import type { Schema } from './typed-project/typings';

const project = join(__dirname, 'typed-project');
const directory = mkdtempSync(join(tmpdir(), 'canopy-typed-project-'));

/** Type-checks files of `directory` with strict settings, `@canopy/agent-core` from the sources. */
function typeCheck(files: Record<string, string>): Record<string, string[]> {
  const paths = Object.entries(files).map(([name, code]) => {
    writeFileSync(join(directory, name), code);
    return join(directory, name);
  });
  const program = ts.createProgram(paths, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(__dirname, '../../../node_modules/@types')],
    paths: { '@canopy/agent-core': [join(__dirname, '../src/index.ts')] },
  });
  return Object.fromEntries(
    Object.keys(files).map((name, index) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(paths[index] as string))
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ]),
  );
}

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
    copyFileSync(join(project, 'customizations.ts'), join(directory, 'customizations.ts'));
    const header = "import type { ExportedRecord, Schema } from './typings';\n";
    const misuse = (body: string) =>
      `${header}import type { Agent } from '@canopy/agent-core';\n` +
      `export const f = (agent: Agent<Schema>) => ${body};\n`;
    errors = typeCheck({
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
    });
  }, 60_000);

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  // UPDATE_TYPED_PROJECT=1 rewrites the committed file after a change of the customizations.
  it('generates the committed typings', () => {
    if (process.env.UPDATE_TYPED_PROJECT === '1')
      writeFileSync(join(project, 'typings.ts'), generated);
    expect(generated).toBe(readFileSync(join(project, 'typings.ts'), 'utf8'));
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
