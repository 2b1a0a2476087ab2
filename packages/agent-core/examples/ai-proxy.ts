import { createAgent, createAiProvider } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';

/** AI features of the admin front end, answered by OpenAI through the agent. */
export async function startWithAi(config: {
  databaseUrl: string;
  serverUrl: string;
  schemaPath: string;
  openAiBaseUrl?: string; // default https://api.openai.com/v1
}) {
  const agent = createAgent({
    authSecret: 'a-long-random-string',
    envSecret: 'ab'.repeat(32),
    serverUrl: config.serverUrl,
    schemaPath: config.schemaPath,
    loggerLevel: 'Warn',
  })
    .addDataSource(createSqlDataSource(config.databaseUrl))
    .addAi(
      createAiProvider({
        name: 'assistant',
        provider: 'openai', // or 'anthropic'
        model: 'gpt-4o',
        apiKey: process.env.OPENAI_API_KEY ?? 'sk-test',
        baseUrl: config.openAiBaseUrl,
      }),
    )
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start(); // serves POST /forest/_internal/ai-proxy/ai-query
  return agent;
}
