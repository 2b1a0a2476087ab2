import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prettyJson } from './pretty-json';
import { readSchemaFile, writeSchemaFile } from './schema-file';
import type { SchemaFileError } from './schema-file-error';
import { generateSchema } from './schema-generator';
import { hashSchema } from './schema-hash';
import { toSchemaDocument } from './schema-document';
import { ShopDataSource } from './shop-fixture';

const directory = mkdtempSync(join(tmpdir(), 'canopy-schema-'));
const routes = { prefix: '/forest', useUnsafeActionEndpoint: false };

describe('prettyJson', () => {
  it('keeps what fits in 100 characters on one line and breaks the rest', () => {
    const text = prettyJson({
      short: { a: 1, b: [1, 2], c: {} },
      long: Array.from({ length: 30 }, (_, index) => `item-${index}`),
    });
    const lines = text.split('\n');
    expect(lines[1]).toBe('  "short": { "a": 1, "b": [1, 2], "c": {} },');
    expect(lines[2]).toBe('  "long": [');
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    expect(JSON.parse(text)).toEqual({
      short: { a: 1, b: [1, 2], c: {} },
      long: Array.from({ length: 30 }, (_, index) => `item-${index}`),
    });
  });
});

describe('schema file', () => {
  it('is written only when its content changes and reads back', async () => {
    const path = join(directory, '.canopy-schema.json');
    const schema = await generateSchema(new ShopDataSource(), routes);
    expect(await writeSchemaFile(path, schema)).toBe(true);
    const written = statSync(path).mtimeMs;
    expect(await writeSchemaFile(path, schema)).toBe(false);
    expect(statSync(path).mtimeMs).toBe(written);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(JSON.parse(JSON.stringify(schema)));
    expect(await readSchemaFile(path)).toEqual(JSON.parse(JSON.stringify(schema.collections)));
  });

  it('says what to do when the file is missing or broken', async () => {
    const missing = await readSchemaFile(join(directory, 'nope.json')).catch((error) => error);
    expect((missing as SchemaFileError).code).toBe('SCHEMA_FILE_MISSING');
    expect((missing as Error).message).toMatch(
      /nope\.json cannot be read \(ENOENT\).*generateSchemaOnly/,
    );

    const broken = join(directory, 'broken.json');
    writeFileSync(broken, '{"collections": 3}');
    expect(((await readSchemaFile(broken).catch((error) => error)) as SchemaFileError).code).toBe(
      'SCHEMA_FILE_INVALID',
    );
  });
});

describe('hash and upload document', () => {
  it('hashes {collections, meta} with SHA-1 and changes only when the schema does', async () => {
    const a = await generateSchema(new ShopDataSource(), routes);
    const b = await generateSchema(new ShopDataSource(), routes);
    const c = await generateSchema(new ShopDataSource({ extraOrderField: 'note' }), routes);
    expect(hashSchema(a)).toMatch(/^[0-9a-f]{40}$/);
    expect(hashSchema(a)).toBe(hashSchema(b));
    expect(hashSchema(a)).not.toBe(hashSchema(c));
  });

  it('puts segments and actions in included with the hash in meta', async () => {
    const schema = await generateSchema(new ShopDataSource(), routes);
    const document = toSchemaDocument(schema, 'abc');
    expect(document.meta.schemaFileHash).toBe('abc');
    expect(document.data[1]).toMatchObject({
      type: 'collections',
      id: 'orders',
      attributes: { name: 'orders', paginationType: 'page' },
      relationships: {
        segments: { data: [{ type: 'segments', id: 'orders.Late' }] },
        actions: {
          data: [
            { type: 'actions', id: 'orders-1-export-invoices' },
            { type: 'actions', id: 'orders-0-refund-order' },
          ],
        },
      },
    });
    expect(document.data[1]?.attributes).not.toHaveProperty('actions');
    expect(document.included).toContainEqual({
      type: 'segments',
      id: 'orders.Late',
      attributes: { name: 'Late' },
    });
  });
});
