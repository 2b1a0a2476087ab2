import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createServerSandbox, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { ShopWithActions } from '../http/test-fixtures/action-collection';
import { isMcpError } from './mcp-error';
import { connectWithOAuth, obtainTokens } from './test-fixtures/mcp-oauth-client';

// Tests start agents, log in with OAuth and restart: seconds on a loaded machine.
jest.setTimeout(30_000);

const ENV_SECRET = 'ef'.repeat(32);
const AUTH_SECRET = 'mcp-standalone-auth-secret';

describe('the MCP server on its own port, with a subset of tools', () => {
  let sandbox: ServerSandbox;
  const agents: Agent[] = [];

  const start = async (configure: (agent: Agent) => Agent) => {
    const agent = configure(
      createAgent({
        authSecret: AUTH_SECRET,
        envSecret: ENV_SECRET,
        serverUrl: sandbox.url,
        schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-mcp-')), '.canopy-schema.json'),
        isProduction: false,
        logger: () => undefined,
      }).addDataSource(async () => new ShopWithActions()),
    );
    agents.push(agent);
    await agent.start();
    return agent;
  };

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
  });

  afterEach(async () => {
    delete process.env.CANOPY_MCP_ENABLED_TOOLS;
    await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('serves only the enabled tools (plus describeCollection) on the standalone port', async () => {
    const agent = await start((a) =>
      a.mountAiMcpServer({ enabledTools: ['list'], standalone: { port: 0, host: '127.0.0.1' } }),
    );
    expect(agent.mcpServerPort).toEqual(expect.any(Number));
    const { client } = await connectWithOAuth(`http://127.0.0.1:${agent.mcpServerPort}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['describeCollection', 'list']);
    const answer = (await client.callTool({ name: 'delete', arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(answer.isError).toBe(true);
    expect(answer.content[0]?.text).toContain('delete');
    await client.close();
  });

  it('keeps serving after a restart, and refuses a token without mcp:read (403)', async () => {
    const agent = await start((a) => a.mountAiMcpServer({ standalone: { port: 0 } }));
    const url = `http://127.0.0.1:${agent.mcpServerPort}/mcp`;
    const { client } = await connectWithOAuth(url);
    await agent.restart();
    const answer = (await client.callTool({
      name: 'list',
      arguments: { collectionName: 'orders', fields: ['reference'], pagination: { size: 2 } },
    })) as { content: { text: string }[] };
    expect(JSON.parse(answer.content[0]?.text ?? '')).toEqual({
      records: [
        { id: 101, reference: 'SO-0101' },
        { id: 102, reference: 'SO-0102' },
      ],
    });
    await client.close();

    sandbox.oauth.login = { userId: 1, renderingId: 1, scope: 'mcp:write' };
    try {
      const { provider } = await obtainTokens(url);
      expect(provider.tokens()?.scope).toBe('mcp:write');
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${provider.tokens()?.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    } finally {
      sandbox.oauth.login = { userId: 1, renderingId: 1 };
    }
  });

  it('reads CANOPY_MCP_ENABLED_TOOLS when no option is given', async () => {
    process.env.CANOPY_MCP_ENABLED_TOOLS = 'listRelated,update';
    const agent = await start((a) => a.mountAiMcpServer({ standalone: { port: 0 } }));
    const { client } = await connectWithOAuth(`http://127.0.0.1:${agent.mcpServerPort}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['describeCollection', 'listRelated', 'update']);
    await client.close();
  });

  it('refuses unknown tool names and a second mount when mounting', () => {
    const agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      logger: () => undefined,
    });
    try {
      agent.mountAiMcpServer({ enabledTools: ['list', 'drop' as 'list'] });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(isMcpError(error, 'INVALID_MCP_OPTIONS')).toBe(true);
      expect((error as Error).message).toContain('"drop"');
    }
    agent.mountAiMcpServer();
    expect(() => agent.mountAiMcpServer()).toThrow('mountAiMcpServer() was already called');
  });
});
