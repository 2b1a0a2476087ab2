import { createAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';

/** The MCP server on its own port, next to the agent's standalone server. */
export async function startMcpServer(config: {
  databaseUrl: string;
  serverUrl: string;
  schemaPath: string;
}) {
  const agent = createAgent({
    authSecret: 'a-long-random-string',
    envSecret: 'ab'.repeat(32),
    serverUrl: config.serverUrl,
    schemaPath: config.schemaPath,
    loggerLevel: 'Warn',
  })
    .addDataSource(createSqlDataSource(config.databaseUrl))
    .mountOnStandaloneServer(0, '127.0.0.1')
    .mountAiMcpServer({
      enabledTools: ['list', 'listRelated'], // describeCollection is always on
      standalone: { port: 0, host: '127.0.0.1' }, // `true`: MCP_SERVER_PORT, else 3931
    });
  await agent.start();

  // An AI client discovers the authorization server from here, then logs in with OAuth.
  const origin = `http://127.0.0.1:${agent.mcpServerPort}`;
  const metadata = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
  const withoutToken = await fetch(`${origin}/mcp`, { method: 'POST' });
  return { agent, metadata: await metadata.json(), withoutTokenStatus: withoutToken.status };
}
