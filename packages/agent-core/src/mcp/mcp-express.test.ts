import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import express from 'express';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { ShopWithActions } from '../http/test-fixtures/action-collection';
import { connectWithOAuth } from './test-fixtures/mcp-oauth-client';

const ENV_SECRET = '34'.repeat(32);

describe('the MCP server mounted with the agent in a host express application', () => {
  let sandbox: ServerSandbox;
  let agent: Agent;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
    const app = express();
    app.get('/hello', (_request, response) => {
      response.send('host route');
    });
    agent = createAgent({
      authSecret: 'mcp-express-auth-secret',
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-mcp-')), '.canopy-schema.json'),
      isProduction: false,
      logger: () => undefined,
    })
      .addDataSource(async () => new ShopWithActions())
      .mountOnExpress(app)
      .mountAiMcpServer({ enabledTools: ['list'] });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await agent?.stop();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await sandbox?.close();
  });

  it('serves nothing at the origin root before start, then the MCP routes beside the host routes', async () => {
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    await agent.start();
    expect(await (await fetch(`${base}/hello`)).text()).toBe('host route');
    expect(await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual({
      resource: `${base}/mcp`,
      authorization_servers: [base],
      scopes_supported: ['mcp:read', 'mcp:write', 'mcp:action', 'mcp:admin'],
      resource_name: 'Canopy agent',
    });
    expect((await fetch(`${base}/mcp`)).status).toBe(405);
    const { client } = await connectWithOAuth(`${base}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['describeCollection', 'list']);
    await client.close();
    await agent.stop();
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
  });
});
