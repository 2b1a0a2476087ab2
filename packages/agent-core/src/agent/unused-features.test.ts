import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');
const source = (path: string) => JSON.stringify(join(root, path).replace(/\\/g, '/'));

/** Packages of features an agent may not use: loading them costs memory to every agent. */
const OPTIONAL_PACKAGES = ['jose', 'zod', '@modelcontextprotocol/sdk', '@electric-sql/pglite'];

/**
 * Features that cost nothing when unused: a separate Node process loads the agent and the SQL
 * data source's embedded database starter, starts an agent without sign-in, AI or MCP, serves a list, and reports which of
 * the optional features' packages it has loaded.
 */
describe('an agent without sign-in, AI, MCP or the embedded database', () => {
  it('does not load their packages', () => {
    const directory = mkdtempSync(join(tmpdir(), 'canopy-unused-'));
    const script = join(directory, 'probe.ts');
    writeFileSync(
      script,
      [
        `import { createAgent } from ${source('packages/agent-core/src/agent/index')};`,
        `import { createInMemoryDataSource } from ${source('packages/agent-core/src/toolkit/in-memory/in-memory-data-source')};`,
        `import { startEmbeddedPostgres } from ${source('packages/datasource-sql/src/embedded/start-embedded-postgres')};`,
        `import { createServerSandbox } from ${source('packages/testing/src/index')};`,
        '(async () => {',
        '  void startEmbeddedPostgres;',
        '  const sandbox = await createServerSandbox(0);',
        '  const agent = createAgent({',
        `    authSecret: 'a', envSecret: '6'.repeat(64), serverUrl: sandbox.url,`,
        `    schemaPath: ${JSON.stringify(join(directory, 'schema.json'))}, logger: () => {},`,
        '  })',
        '    .addDataSource(createInMemoryDataSource({',
        "      books: { fields: { id: { type: 'Column', columnType: 'Number', isPrimaryKey: true } }, records: [] },",
        '    }))',
        "    .mountOnStandaloneServer(0, '127.0.0.1');",
        '  await agent.start();',
        `  await fetch(\`http://127.0.0.1:\${agent.standaloneServerPort}/forest/books\`);`,
        '  await agent.stop();',
        '  await sandbox.close();',
        `  const loaded = ${JSON.stringify(OPTIONAL_PACKAGES)}.filter((name) =>`,
        '    Object.keys(require.cache).some((path) => path.includes(`/node_modules/${name}/`)),',
        '  );',
        '  console.log(JSON.stringify(loaded));',
        '})();',
      ].join('\n'),
    );
    const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual([]);
  }, 90_000);
});
