import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createInMemoryDataSource, type Agent } from '@canopy/agent-core';

/**
 * Starts an agent of the environment whose secret is `envSecret`, on the platform at `serverUrl`,
 * with an in-memory `orders` collection (ids 1 and 2) and its MCP server on its own 127.0.0.1
 * port. Returns the agent (to stop) and the MCP server's URL.
 */
export async function startMcpAgent(input: {
  serverUrl: string;
  envSecret: string;
  authSecret: string;
}): Promise<{ agent: Agent; mcpUrl: string }> {
  const agent = createAgent({
    authSecret: input.authSecret,
    envSecret: input.envSecret,
    serverUrl: input.serverUrl,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-mcp-agent-')), '.canopy-schema.json'),
    logger: () => {},
  })
    .addDataSource(
      createInMemoryDataSource({
        orders: {
          fields: { id: { type: 'Column', columnType: 'Number', isPrimaryKey: true } },
          records: [{ id: 1 }, { id: 2 }],
        },
      }),
    )
    .mountAiMcpServer({ standalone: { port: 0, host: '127.0.0.1' } });
  await agent.start();
  return { agent, mcpUrl: `http://127.0.0.1:${agent.mcpServerPort}` };
}
