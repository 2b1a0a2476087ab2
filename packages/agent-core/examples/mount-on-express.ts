import type { Server } from 'node:http';
import { once } from 'node:events';
import express from 'express';
import { createAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';

/** The agent inside an existing express application, under `/admin-api`. */
export async function mountOnExpress(config: {
  databaseUrl: string;
  serverUrl: string;
  schemaPath: string;
}) {
  const app = express();
  app.get('/status', (_request, response) => response.json({ ok: true })); // the app's own routes

  const agent = createAgent({
    authSecret: 'a-long-random-string',
    envSecret: 'ab'.repeat(32),
    serverUrl: config.serverUrl,
    schemaPath: config.schemaPath,
    prefix: '/admin-api', // default /forest
    loggerLevel: 'Warn',
  })
    .addDataSource(createSqlDataSource(config.databaseUrl), { include: ['orders'] })
    .mountOnExpress(app); // before start(), the agent's routes answer 503

  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  await agent.start();
  return { agent, server };
}
