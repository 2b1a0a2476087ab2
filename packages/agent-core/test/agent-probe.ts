import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');

/** A workspace source file as a quoted module specifier for the probe script. */
export const source = (path: string): string =>
  JSON.stringify(join(root, path).replace(/\\/g, '/'));

/** What a probe script does besides starting and stopping its agent. */
export interface AgentProbe {
  /** Import lines added to the script. */
  imports?: string[];
  /** Calls chained on the agent before it starts (e.g. `.mountAiMcpServer()`). */
  mounts?: string[];
  /** Lines run while the agent serves (`agent` is in scope). */
  running: string[];
  /** Lines run once the agent and the sandbox are stopped. */
  stopped: string[];
}

/**
 * Runs, in a separate Node process (tsx), a script that starts an agent on a standalone server
 * over one in-memory `books` collection against the platform sandbox, runs `probe.running`, stops
 * the agent and the sandbox, then runs `probe.stopped`.
 */
export function runAgentProbe(probe: AgentProbe, timeoutMs: number): SpawnSyncReturns<string> {
  const directory = mkdtempSync(join(tmpdir(), 'canopy-probe-'));
  const script = join(directory, 'probe.ts');
  writeFileSync(
    script,
    [
      `import { createAgent } from ${source('packages/agent-core/src/agent/index')};`,
      `import { createInMemoryDataSource } from ${source('packages/agent-core/src/toolkit/in-memory/in-memory-data-source')};`,
      `import { createServerSandbox } from ${source('packages/testing/src/index')};`,
      ...(probe.imports ?? []),
      '(async () => {',
      '  const sandbox = await createServerSandbox(0);',
      '  const agent = createAgent({',
      `    authSecret: 'a', envSecret: '6'.repeat(64), serverUrl: sandbox.url,`,
      `    schemaPath: ${JSON.stringify(join(directory, 'schema.json'))}, logger: () => {},`,
      '  })',
      '    .addDataSource(createInMemoryDataSource({',
      "      books: { fields: { id: { type: 'Column', columnType: 'Number', isPrimaryKey: true } }, records: [] },",
      '    }))',
      "    .mountOnStandaloneServer(0, '127.0.0.1')",
      ...(probe.mounts ?? []).map((mount) => `    ${mount}`),
      '  ;',
      '  await agent.start();',
      ...probe.running,
      '  await agent.stop();',
      '  await sandbox.close();',
      ...probe.stopped,
      '})();',
    ].join('\n'),
  );
  return spawnSync(join(root, 'node_modules/.bin/tsx'), [script], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
}
