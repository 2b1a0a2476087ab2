import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { MCP_TOOL_NAMES, type McpServerOptions } from './mcp-options';
import { connectWithOAuth } from './test-fixtures/mcp-oauth-client';

// Each test starts an agent and logs in with OAuth: seconds on a loaded machine.
jest.setTimeout(30_000);

const ENV_SECRET = 'ef'.repeat(32);
const AUTH_SECRET = 'mcp-controls-auth-secret';

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = answer.content[0]?.text ?? '';
  if (answer.isError) return { error: text };
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The MCP controls through the SDK client: tool filtering, annotations on every tool, the
 * approval path of an action whose role requires approval, and file uploads for File fields.
 */
describe('MCP controls on PostgreSQL, through the SDK client', () => {
  const db = useTestDatabase('postgres');
  let sandbox: ServerSandbox;
  const agents: Agent[] = [];
  const clients: Client[] = [];
  /** Files the "Attach" action received. */
  const received: { name: string; mimeType: string; text: string }[] = [];

  async function start(options: McpServerOptions): Promise<Client> {
    const agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-mcp-')), '.canopy-schema.json'),
      isProduction: false,
      logger: () => undefined,
    })
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('invoices', (invoices) =>
        invoices
          .addAction('Attach', {
            scope: 'Single',
            form: [{ type: 'File', label: 'Scan', isRequired: true }],
            execute: async (context, resultBuilder) => {
              const file = context.formValues.Scan as {
                name: string;
                mimeType: string;
                buffer: Buffer;
              };
              received.push({
                name: file.name,
                mimeType: file.mimeType,
                text: file.buffer.toString(),
              });
              await context.collection.update(context.filter, { scan_name: file.name });
              return resultBuilder.success(`Attached ${file.name}`);
            },
          })
          .addAction('Refund', {
            scope: 'Single',
            execute: async (context, resultBuilder) => {
              await context.collection.update(context.filter, { status: 'refunded' });
              return resultBuilder.success('Refunded');
            },
          }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1')
      .mountAiMcpServer(options);
    agents.push(agent);
    await agent.start();
    const { client } = await connectWithOAuth(`http://127.0.0.1:${agent.standaloneServerPort}/mcp`);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE invoices (
        id serial PRIMARY KEY, status text NOT NULL DEFAULT 'open', scan_name text);
      INSERT INTO invoices (status) VALUES ('open'), ('open');
    `);
    sandbox = await createServerSandbox(0);
    await sandbox.setUsers([
      { ...TEST_USER },
      {
        id: 2,
        email: 'sam@canopy.test',
        firstName: 'Sam',
        lastName: 'Support',
        permissionLevel: 'user',
        roleId: 2,
      },
    ]);
    await sandbox.setRoles([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'Support', actions: { invoices: { Refund: { approvalRequired: true } } } },
    ]);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const agent of agents) await agent.stop();
    await sandbox?.close();
  });

  it('annotates every tool with all four MCP hints', async () => {
    const client = await start({});
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES]);
    const hints = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        [
          tool.annotations?.readOnlyHint,
          tool.annotations?.destructiveHint,
          tool.annotations?.idempotentHint,
          tool.annotations?.openWorldHint,
        ],
      ]),
    );
    expect(hints).toEqual({
      describeCollection: [true, false, true, false],
      list: [true, false, true, false],
      listRelated: [true, false, true, false],
      getActionForm: [true, false, true, false],
      create: [false, false, false, false],
      update: [false, true, true, false],
      delete: [false, true, true, false],
      associate: [false, false, true, false],
      dissociate: [false, true, true, false],
      executeAction: [false, true, false, true],
      uploadActionFile: [false, false, false, false],
    });
    for (const tool of tools) expect(tool.annotations?.title).toBe(tool.name);
  });

  it('exposes only the enabled tools minus the disabled ones, describeCollection always', async () => {
    const client = await start({
      enabledTools: ['list', 'update', 'delete'],
      disabledTools: ['delete'],
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['describeCollection', 'list', 'update']);
    const refused = (await client.callTool({
      name: 'delete',
      arguments: { collectionName: 'invoices', recordIds: [1] },
    })) as ToolAnswer;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/delete/);
    expect(await db().knex('invoices').where({ id: 1 }).first()).toBeDefined();
  });

  it('reads the tool lists from the environment, and refuses bad names at mount', async () => {
    process.env.CANOPY_MCP_DISABLED_TOOLS = 'executeAction,uploadActionFile';
    try {
      const client = await start({});
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('executeAction');
      expect(names).not.toContain('uploadActionFile');
      expect(names).toContain('getActionForm');
      const agent = createAgent({ authSecret: AUTH_SECRET, envSecret: ENV_SECRET });
      process.env.CANOPY_MCP_DISABLED_TOOLS = 'deleet';
      expect(() => agent.mountAiMcpServer()).toThrow(
        'CANOPY_MCP_DISABLED_TOOLS names unknown MCP tools: "deleet".',
      );
      expect(() => agent.mountAiMcpServer({ disabledTools: ['describeCollection'] })).toThrow(
        /cannot disable describeCollection/,
      );
    } finally {
      delete process.env.CANOPY_MCP_DISABLED_TOOLS;
    }
  });

  it('uploads a file and runs an action with its handle in the File field', async () => {
    const client = await start({ maxUploadBytes: 64 });
    const upload = await call(client, 'uploadActionFile', {
      fileName: 'scan 1.txt',
      mimeType: 'text/plain',
      contentBase64: Buffer.from('hello scan').toString('base64'),
    });
    expect(upload).toMatchObject({
      fileHandle: expect.stringMatching(/^canopy-upload:[0-9a-f-]{36}$/),
      fileName: 'scan 1.txt',
      mimeType: 'text/plain',
      size: 10,
    });
    const form = await call(client, 'getActionForm', {
      collectionName: 'invoices',
      actionName: 'Attach',
      recordIds: [1],
      values: { Scan: upload.fileHandle },
    });
    expect(form).toMatchObject({
      canExecute: true,
      fields: [{ name: 'Scan', type: 'File', value: upload.fileHandle }],
    });
    const result = await call(client, 'executeAction', {
      collectionName: 'invoices',
      actionName: 'Attach',
      recordIds: [1],
      values: { Scan: upload.fileHandle },
    });
    expect(result).toMatchObject({ success: 'Attached scan 1.txt' });
    expect(received).toEqual([{ name: 'scan 1.txt', mimeType: 'text/plain', text: 'hello scan' }]);
    expect((await db().knex('invoices').where({ id: 1 }).first()).scan_name).toBe('scan 1.txt');

    expect(
      await call(client, 'uploadActionFile', {
        fileName: 'big.bin',
        mimeType: 'application/octet-stream',
        contentBase64: Buffer.alloc(65).toString('base64'),
      }),
    ).toEqual({ error: 'The file is 65 bytes; files of at most 64 bytes are accepted.' });
    expect(
      await call(client, 'uploadActionFile', {
        fileName: 'bad.txt',
        mimeType: 'text/plain',
        contentBase64: 'not base64!',
      }),
    ).toEqual({ error: expect.stringContaining('not valid base64') });
    expect(
      await call(client, 'executeAction', {
        collectionName: 'invoices',
        actionName: 'Attach',
        recordIds: [2],
        values: { Scan: 'canopy-upload:00000000-0000-4000-8000-000000000000' },
      }),
    ).toEqual({ error: expect.stringContaining('Unknown or expired file handle') });
    expect((await db().knex('invoices').where({ id: 2 }).first()).scan_name).toBeNull();
  });

  it("keeps a user's uploads from other users", async () => {
    const client = await start({});
    const upload = await call(client, 'uploadActionFile', {
      fileName: 'a.txt',
      mimeType: 'text/plain',
      contentBase64: Buffer.from('secret').toString('base64'),
    });
    sandbox.oauth.login = { userId: 2, renderingId: 2 };
    try {
      const agent = agents.at(-1) as Agent;
      const { client: other } = await connectWithOAuth(
        `http://127.0.0.1:${agent.standaloneServerPort}/mcp`,
      );
      clients.push(other);
      expect(
        await call(other, 'executeAction', {
          collectionName: 'invoices',
          actionName: 'Attach',
          recordIds: [2],
          values: { Scan: upload.fileHandle },
        }),
      ).toEqual({ error: expect.stringContaining('Unknown or expired file handle') });
    } finally {
      sandbox.oauth.login = { userId: 1, renderingId: 1 };
    }
  });

  it('files an approval request with the stated reason instead of running the action', async () => {
    sandbox.oauth.login = { userId: 2, renderingId: 2 };
    try {
      const client = await start({});
      const answer = await call(client, 'executeAction', {
        collectionName: 'invoices',
        actionName: 'Refund',
        recordIds: [2],
        reasoning: 'Customer was charged twice.',
      });
      expect(answer).toMatchObject({
        approvalRequested: true,
        approvalId: expect.any(String),
        message: expect.stringContaining('needs an approval'),
      });
      expect((await db().knex('invoices').where({ id: 2 }).first()).status).toBe('open');
      expect(sandbox.actionApprovals().at(-1)).toMatchObject({
        id: answer.approvalId,
        requesterId: 2,
        actionName: 'Refund',
        collectionName: 'invoices',
        recordIds: ['2'],
        comments: ['Customer was charged twice.'],
      });
    } finally {
      sandbox.oauth.login = { userId: 1, renderingId: 1 };
    }
  });
});
