import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');
const source = (path: string) => JSON.stringify(join(root, path).replace(/\\/g, '/'));

/**
 * The strongest check that `stop()` leaves nothing behind: a separate Node process starts an
 * agent against the sandbox, stops it, and must then exit by itself (no timer, socket or stream
 * left), well before the time limit.
 */
describe('a stopped agent lets the process exit', () => {
  it('exits on its own after start() and stop()', () => {
    const directory = mkdtempSync(join(tmpdir(), 'canopy-exit-'));
    const script = join(directory, 'probe.ts');
    writeFileSync(
      script,
      [
        `import { createAgent } from ${source('packages/agent-core/src/agent/index')};`,
        `import { createInMemoryDataSource } from ${source('packages/agent-core/src/toolkit/in-memory/in-memory-data-source')};`,
        `import { createServerSandbox } from ${source('packages/testing/src/index')};`,
        '(async () => {',
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
        `  await fetch(\`http://127.0.0.1:\${agent.standaloneServerPort}/forest/\`);`,
        '  await agent.stop();',
        '  await sandbox.close();',
        "  console.log('stopped');",
        '})();',
      ].join('\n'),
    );
    const started = Date.now();
    const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('stopped');
    expect(result.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 40_000);
});
