import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { readSchemaFile } from './schema-file';

describe('readSchemaFile', () => {
  const directory = mkdtempSync(join(tmpdir(), 'canopy-client-schema-'));

  it('reads collections and defaults missing actions to an empty list', async () => {
    const path = join(directory, 'ok.json');
    writeFileSync(path, JSON.stringify({ collections: [{ name: 'orders' }], meta: {} }));
    expect(await readSchemaFile(path)).toEqual({
      collections: [{ name: 'orders', actions: [] }],
      meta: {},
    });
  });

  it('says which path is wrong', async () => {
    await expect(readSchemaFile(join(directory, 'missing.json'))).rejects.toThrow(
      /Provide a right schema path: could not read the agent schema at '.*missing\.json'/,
    );
    const path = join(directory, 'bad.json');
    writeFileSync(path, '{"nope": 1}');
    await expect(readSchemaFile(path)).rejects.toThrow('has no "collections" array');
  });
});
