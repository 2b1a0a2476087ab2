import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import jwt from 'jsonwebtoken';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { createAgent } from '../agent/create-agent';
import { AGENT_VERSION } from '../schema/schema-meta';
import { MCP_TOOL_NAMES } from './mcp-options';
import { connectWithOAuth, obtainTokens } from './test-fixtures/mcp-oauth-client';

const ENV_SECRET = 'cd'.repeat(32);
const AUTH_SECRET = 'mcp-e2e-auth-secret';

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = answer.content[0]?.text ?? '';
  if (answer.isError) return { error: text };
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * End to end: the SDK's MCP client discovers the agent's MCP server, registers on the platform
 * sandbox, logs in with the authorization-code flow and PKCE, then calls every tool against an
 * agent on PostgreSQL, as two users with different rights.
 */
describe('MCP server on PostgreSQL, through the SDK client', () => {
  const db = useTestDatabase('postgres');
  let sandbox: ServerSandbox;
  let agent: Agent;
  let mcpUrl: string;
  let admin: Client;

  beforeAll(async () => {
    await db().knex.raw(`
      CREATE TABLE customers (id serial PRIMARY KEY, full_name text NOT NULL);
      CREATE TABLE orders (
        id serial PRIMARY KEY,
        reference text NOT NULL,
        total integer NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        customer_id integer REFERENCES customers(id));
      INSERT INTO customers (full_name) VALUES ('Ada Martin'), ('Bob Stone');
      INSERT INTO orders (reference, total, status, customer_id) VALUES
        ('SO-1', 120, 'paid', 1), ('SO-2', 40, 'pending', 1), ('SO-3', 15, 'pending', 2);
    `);
    sandbox = await createServerSandbox(0);
    await sandbox.setUsers([
      { ...TEST_USER },
      {
        id: 2,
        email: 'eve@canopy.test',
        firstName: 'Eve',
        lastName: 'Reader',
        permissionLevel: 'user',
        roleId: 2,
      },
    ]);
    await sandbox.setRoles([
      { id: 1, name: 'Admin' },
      {
        id: 2,
        name: 'Orders reader',
        collections: { orders: { deleteEnabled: false }, customers: { browseEnabled: false } },
        actions: { orders: { 'Mark as paid': { approvalRequired: true } } },
      },
    ]);
    const schemaPath = join(mkdtempSync(join(tmpdir(), 'canopy-mcp-')), '.canopy-schema.json');
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath,
      isProduction: false,
      logger: () => undefined,
    })
      .addDataSource(createSqlDataSource(db().url))
      .customizeCollection('customers', (customers) =>
        customers.replaceSearch((text) => ({
          field: 'full_name',
          operator: 'IContains',
          value: text,
        })),
      )
      .customizeCollection('orders', (orders) =>
        orders.addAction('Mark as paid', {
          scope: 'Single',
          form: [
            { type: 'String', label: 'Note', isRequired: true },
            {
              type: 'Number',
              label: 'Fee',
              widget: 'CurrencyInput',
              currency: 'eur',
              base: 'Cent',
            },
            { type: 'Collection', label: 'Payer', collectionName: 'customers' },
          ],
          execute: async (context, resultBuilder) => {
            await context.collection.update(context.filter, { status: 'paid' });
            return resultBuilder.success(`Paid: ${String(context.formValues.Note)}`);
          },
        }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1')
      .mountAiMcpServer();
    await agent.start();
    mcpUrl = `http://127.0.0.1:${agent.standaloneServerPort}/mcp`;
    ({ client: admin } = await connectWithOAuth(mcpUrl));
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
    await agent?.stop();
    await sandbox?.close();
  });

  it('answers 401 with a WWW-Authenticate header pointing to the resource metadata', async () => {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="http://127.0.0.1:${agent.standaloneServerPort}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await fetch(
      `http://127.0.0.1:${agent.standaloneServerPort}/.well-known/oauth-authorization-server`,
    ).then((answer) => answer.json());
    expect(metadata).toMatchObject({
      authorization_endpoint: `http://127.0.0.1:${agent.standaloneServerPort}/oauth/authorize`,
      registration_endpoint: `${sandbox.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('refuses foreign, expired and refresh tokens at the HTTP layer', async () => {
    const { provider } = await connectWithOAuth(mcpUrl);
    const refresh = provider.tokens()?.refresh_token as string;
    const claims = { ...TEST_USER, renderingId: 1, scopes: ['mcp:read'], clientId: 'c' };
    const foreign = jwt.sign(claims, 'another-secret', { expiresIn: 600 });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, AUTH_SECRET);
    for (const token of [refresh, foreign, expired, 'not-a-jwt']) {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
    }
  });

  it('lists every tool with a JSON Schema input and the collections as an enum', async () => {
    expect(admin.getServerVersion()).toEqual({
      name: '@canopy/agent-core',
      version: AGENT_VERSION,
    });
    const { tools } = await admin.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...MCP_TOOL_NAMES]);
    const list = tools.find((tool) => tool.name === 'list');
    expect(list?.inputSchema).toMatchObject({
      type: 'object',
      properties: { collectionName: { enum: ['customers', 'orders'] } },
      required: ['collectionName'],
    });
  });

  it('describes a collection, lists, filters, sorts, counts and pages', async () => {
    const description = await call(admin, 'describeCollection', { collectionName: 'orders' });
    expect(description).toMatchObject({
      collection: 'orders',
      relations: [{ name: 'customer', type: 'many-to-one', targetCollection: 'customers' }],
      actions: [{ name: 'Mark as paid', type: 'single', hasForm: true }],
    });
    const fields = description.fields as { name: string; operators: string[] }[];
    expect(fields.find((field) => field.name === 'total')?.operators).toContain('GreaterThan');

    const page = await call(admin, 'list', {
      collectionName: 'orders',
      filters: { field: 'status', operator: 'Equal', value: 'pending' },
      sort: { field: 'total', ascending: false },
      fields: ['reference', 'total', 'customer@@@full_name'],
      pagination: { size: 1, number: 1 },
      enableCount: true,
    });
    expect(page).toEqual({
      records: [
        { id: 2, reference: 'SO-2', total: 40, customer: { id: 1, full_name: 'Ada Martin' } },
      ],
      totalCount: 2,
    });
    const searched = await call(admin, 'list', { collectionName: 'customers', search: 'bob' });
    expect((searched.records as { full_name: string }[]).map((r) => r.full_name)).toEqual([
      'Bob Stone',
    ]);
    const related = await call(admin, 'listRelated', {
      collectionName: 'customers',
      relationName: 'orders',
      parentRecordId: 1,
      fields: ['reference'],
      enableCount: true,
    });
    expect(related).toEqual({
      records: [
        { id: 1, reference: 'SO-1' },
        { id: 2, reference: 'SO-2' },
      ],
      totalCount: 2,
    });
  });

  it('returns tool errors a model can act on', async () => {
    expect(await call(admin, 'list', { collectionName: 'invoices' })).toEqual({
      error: expect.stringContaining('invoices'),
    });
    expect(
      await call(admin, 'list', { collectionName: 'orders', pagination: { size: 5000 } }),
    ).toEqual({ error: expect.stringMatching(/100/) });
    expect(
      await call(admin, 'list', {
        collectionName: 'orders',
        filters: { field: 'nope', operator: 'Equal', value: 1 },
      }),
    ).toEqual({ error: expect.stringMatching(/nope[\s\S]*\(HTTP 4\d\d\)/) });
    expect(
      await call(admin, 'list', { collectionName: 'orders', sort: { field: 'nope' } }),
    ).toEqual({ error: expect.stringMatching(/Sortable fields of "orders": .*reference/) });
    expect(
      await call(admin, 'listRelated', {
        collectionName: 'customers',
        relationName: 'invoices',
        parentRecordId: 1,
      }),
    ).toEqual({ error: expect.stringContaining('Valid to-many relations: orders') });
    expect(await call(admin, 'list', { collectionName: 'orders', filters: '{not json' })).toEqual({
      error: expect.stringContaining('not valid JSON'),
    });
    expect(await call(admin, 'update', { collectionName: 'orders', recordId: 1 })).toEqual({
      error: expect.stringContaining('attributes'),
    });
  });

  it('creates, updates, associates, dissociates and deletes', async () => {
    const created = await call(admin, 'create', {
      collectionName: 'orders',
      attributes: { reference: 'SO-4', total: 99, customer: 2 },
    });
    const id = (created.record as { id: number }).id;
    expect(created.record).toMatchObject({ reference: 'SO-4', total: 99, customer: { id: 2 } });
    const updated = await call(admin, 'update', {
      collectionName: 'orders',
      recordId: id,
      attributes: JSON.stringify({ total: 100 }),
    });
    expect(updated.record).toMatchObject({ id, total: 100 });
    expect(
      await call(admin, 'associate', {
        collectionName: 'customers',
        relationName: 'orders',
        parentRecordId: 1,
        targetRecordId: id,
      }),
    ).toMatchObject({ success: true });
    const linked = await db().knex('orders').where({ id }).first();
    expect(linked.customer_id).toBe(1);
    expect(
      await call(admin, 'dissociate', {
        collectionName: 'customers',
        relationName: 'orders',
        parentRecordId: 1,
        targetRecordIds: [id],
      }),
    ).toMatchObject({ success: true });
    expect((await db().knex('orders').where({ id }).first()).customer_id).toBeNull();
    expect(await call(admin, 'delete', { collectionName: 'orders', recordIds: [id] })).toEqual({
      deletedCount: 1,
    });
    expect(await db().knex('orders').where({ id }).first()).toBeUndefined();
  });

  it('loads an action form and executes the action', async () => {
    const form = await call(admin, 'getActionForm', {
      collectionName: 'orders',
      actionName: 'Mark as paid',
      recordIds: [3],
    });
    expect(form).toMatchObject({
      fields: [
        { name: 'Note', type: 'String', isRequired: true, value: null },
        { name: 'Fee', type: 'Number', isRequired: false, value: null },
        { name: 'Payer', type: 'Number', isRequired: false, value: null },
      ],
      canExecute: false,
      requiredFields: ['Note'],
      skippedFields: [],
    });
    expect(
      await call(admin, 'executeAction', {
        collectionName: 'orders',
        actionName: 'Mark as paid',
        recordIds: [3],
      }),
    ).toEqual({ error: expect.stringContaining('"Note"') });
    expect(
      await call(admin, 'executeAction', {
        collectionName: 'orders',
        actionName: 'Mark as paid',
        recordIds: [3],
        values: { Note: 'cash', Colour: 'red' },
      }),
    ).toEqual({ error: expect.stringContaining('no field "Colour"') });
    const result = await call(admin, 'executeAction', {
      collectionName: 'orders',
      actionName: 'Mark as paid',
      recordIds: [3],
      values: { Note: 'cash' },
    });
    expect(result).toMatchObject({ success: 'Paid: cash' });
    expect((await db().knex('orders').where({ id: 3 }).first()).status).toBe('paid');
  });

  it('records activity logs for the calls of the logged-in user', async () => {
    const logs = await sandbox.waitForActivityLogs((all) =>
      ['describeCollection', 'filter', 'search', 'create', 'update', 'delete', 'action'].every(
        (action) => all.some((log) => log.action === action && log.userId === TEST_USER.id),
      ),
    );
    expect(logs.find((log) => log.action === 'describeCollection')).toMatchObject({
      type: 'read',
      collectionName: 'orders',
      userId: TEST_USER.id,
      renderingId: 1,
    });
    expect(logs.find((log) => log.action === 'delete')).toMatchObject({
      type: 'write',
      collectionName: 'orders',
    });
  });

  it('applies the rights and scope of the user who logged in', async () => {
    sandbox.oauth.login = { userId: 2, renderingId: 2 };
    await sandbox.setScope('orders', { field: 'status', operator: 'Equal', value: 'pending' }, 2);
    const { client: eve } = await connectWithOAuth(mcpUrl);
    try {
      const answer = await call(eve, 'delete', { collectionName: 'orders', recordIds: [2] });
      expect(answer).toEqual({ error: expect.stringContaining('(HTTP 403)') });
      expect(await db().knex('orders').where({ id: 2 }).first()).toBeDefined();

      const page = await call(eve, 'list', {
        collectionName: 'orders',
        fields: ['reference'],
        enableCount: true,
      });
      const pending = await db().knex('orders').where({ status: 'pending' }).orderBy('id');
      expect(page).toEqual({
        records: pending.map(({ id, reference }) => ({ id, reference })),
        totalCount: pending.length,
      });

      const { tools } = await eve.listTools();
      const list = tools.find((tool) => tool.name === 'list');
      expect(list?.inputSchema.properties?.collectionName).toMatchObject({ enum: ['orders'] });
      expect(await call(eve, 'describeCollection', { collectionName: 'customers' })).toEqual({
        error: expect.stringContaining('Invalid arguments'),
      });

      const approval = await call(eve, 'executeAction', {
        collectionName: 'orders',
        actionName: 'Mark as paid',
        recordIds: [2],
        values: { Note: 'wire', Fee: 250, Payer: 1 },
        reasoning: 'The customer sent a wire transfer.',
      });
      expect(approval).toMatchObject({ approvalRequested: true, approvalId: '1' });
      expect((await db().knex('orders').where({ id: 2 }).first()).status).toBe('pending');
      expect(sandbox.actionApprovals()).toEqual([
        {
          id: '1',
          requesterId: 2,
          renderingId: 2,
          actionName: 'Mark as paid',
          collectionName: 'orders',
          recordIds: ['2'],
          // With a widget or record reference where the field has one: the Console shows the fee as
          // the form did (€2.50), the payer as a record's id.
          inputs: [
            { name: 'Note', type: 'String', value: 'wire' },
            {
              name: 'Fee',
              type: 'Number',
              widgetEdit: {
                name: 'price editor',
                parameters: {
                  placeholder: null,
                  min: null,
                  max: null,
                  step: null,
                  currency: 'EUR',
                  base: 'Cents',
                },
              },
              value: 250,
            },
            { name: 'Payer', type: 'Number', reference: 'customers.id', value: 1 },
          ],
          comments: ['The customer sent a wire transfer.'],
        },
      ]);
    } finally {
      await eve.close();
      sandbox.oauth.login = { userId: 1, renderingId: 1 };
    }
  });

  it('refuses every write and action tool to a read-only token, with a clear error', async () => {
    sandbox.oauth.login = { userId: 1, renderingId: 1, scope: 'mcp:read' };
    const { client: reader, provider } = await connectWithOAuth(mcpUrl);
    try {
      expect(provider.tokens()?.scope).toBe('mcp:read');
      const before = await db().knex('orders').orderBy('id');
      const refusals: Record<string, [Record<string, unknown>, string]> = {
        create: [
          { collectionName: 'orders', attributes: { reference: 'SO-9', total: 1 } },
          'mcp:write',
        ],
        update: [{ collectionName: 'orders', recordId: 1, attributes: { total: 2 } }, 'mcp:write'],
        delete: [{ collectionName: 'orders', recordIds: [3] }, 'mcp:write'],
        associate: [
          {
            collectionName: 'customers',
            relationName: 'orders',
            parentRecordId: 2,
            targetRecordId: 1,
          },
          'mcp:write',
        ],
        dissociate: [
          {
            collectionName: 'customers',
            relationName: 'orders',
            parentRecordId: 1,
            targetRecordIds: [1],
          },
          'mcp:write',
        ],
        executeAction: [
          {
            collectionName: 'orders',
            actionName: 'Mark as paid',
            recordIds: [2],
            values: { Note: 'x' },
          },
          'mcp:action',
        ],
      };
      for (const [tool, [args, scope]] of Object.entries(refusals)) {
        expect(await call(reader, tool, args)).toEqual({
          error: `The ${tool} tool needs the ${scope} scope, and this access token was granted only mcp:read: log in again and grant ${scope} to use it.`,
        });
      }
      expect(await db().knex('orders').orderBy('id')).toEqual(before);
      const page = await call(reader, 'list', { collectionName: 'orders', fields: ['reference'] });
      expect(page.records).toHaveLength(before.length);
    } finally {
      await reader.close();
      sandbox.oauth.login = { userId: 1, renderingId: 1 };
    }
  });

  it('keeps the platform tokens out of the readable payload of the client tokens', async () => {
    const { provider } = await connectWithOAuth(mcpUrl);
    const tokens = provider.tokens();
    const looksLikeJwt = /[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/;
    for (const token of [tokens?.access_token, tokens?.refresh_token]) {
      const payload = jwt.decode(token as string) as Record<string, unknown>;
      expect(payload).not.toHaveProperty('serverToken');
      expect(payload).not.toHaveProperty('serverRefreshToken');
      expect(JSON.stringify(payload)).not.toMatch(looksLikeJwt);
      // What travels is encrypted: the sealed value is not a base64 of a JWT either.
      for (const value of Object.values(payload)) {
        if (typeof value === 'string' && value.length > 40) {
          expect(Buffer.from(value, 'base64url').toString('latin1')).not.toMatch(looksLikeJwt);
        }
      }
    }
  });

  it('advertises the scopes and answers OAuth errors as RFC 6749 and RFC 8414 say', async () => {
    const base = `http://127.0.0.1:${agent.standaloneServerPort}`;
    const challenge = await fetch(mcpUrl, { method: 'POST', body: '{}' });
    expect(challenge.headers.get('www-authenticate')).toContain(
      'scope="mcp:read mcp:write mcp:action"',
    );
    const metadata = (await fetch(`${base}/.well-known/oauth-authorization-server`).then((answer) =>
      answer.json(),
    )) as Record<string, unknown>;
    expect(metadata.issuer).toBe(base);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(metadata).not.toHaveProperty('revocation_endpoint');
    expect(metadata).not.toHaveProperty('revocation_endpoint_auth_methods_supported');
    const resource = (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`).then(
      (answer) => answer.json(),
    )) as Record<string, unknown>;
    expect(resource.authorization_servers).toEqual([base]);
    const { provider } = await obtainTokens(mcpUrl);
    const bad = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: provider.clientInformation()?.client_id }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).not.toMatch(/[\n{}[\]]/);
    expect(body.error_description).toMatch(/grant_type/);
  });

  it('lists records without the foreign-key columns the schema hides', async () => {
    const schema = await call(admin, 'describeCollection', { collectionName: 'orders' });
    const names = (schema.fields as { name: string }[]).map((field) => field.name);
    expect(names).not.toContain('customer_id');
    const page = await call(admin, 'list', { collectionName: 'orders' });
    const records = page.records as Record<string, unknown>[];
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record).not.toHaveProperty('customer_id');
      expect(record).toHaveProperty('customer');
    }
  });

  it('refreshes tokens through the platform (rotation)', async () => {
    const { provider } = await connectWithOAuth(mcpUrl);
    const tokens = provider.tokens();
    const client = provider.clientInformation();
    const response = await fetch(`http://127.0.0.1:${agent.standaloneServerPort}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens?.refresh_token as string,
        client_id: client?.client_id as string,
      }),
    });
    expect(response.status).toBe(200);
    const renewed = (await response.json()) as { access_token: string; refresh_token: string };
    expect(renewed.refresh_token).not.toBe(tokens?.refresh_token);
    const bad = await fetch(`http://127.0.0.1:${agent.standaloneServerPort}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: 'forged',
        client_id: client?.client_id,
      }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
