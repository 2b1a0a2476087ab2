import { createServerSandbox, type ServerSandbox } from './create-server-sandbox';

const SECRET = 'a'.repeat(64);
const OTHER_SECRET = 'b'.repeat(64);

let sandbox: ServerSandbox;

beforeEach(async () => {
  sandbox = await createServerSandbox(0, { heartbeatMs: 50 });
});
afterEach(async () => {
  await sandbox.close();
});

// Response bodies are read loosely: the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (response: Response): Promise<any> => response.json();

function call(path: string, init: RequestInit & { secret?: string | null } = {}) {
  const { secret = SECRET, ...rest } = init;
  return fetch(`${sandbox.url}${path}`, {
    ...rest,
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'forest-secret-key': secret } : {}),
      ...(rest.headers as Record<string, string>),
    },
  });
}

const uploadDocument = {
  jsonapi: { version: '1.0' },
  meta: { liana: 'canopy-agent', liana_version: '0.1.0', schemaFileHash: 'hash-1' },
  data: [
    {
      type: 'collections',
      id: 'orders',
      attributes: { name: 'orders', fields: [{ field: 'id', type: 'Number' }] },
      relationships: {
        segments: { data: [{ type: 'segments', id: 'orders.Late' }] },
        actions: { data: [{ type: 'actions', id: 'orders-0-refund' }] },
      },
    },
  ],
  included: [
    { type: 'segments', id: 'orders.Late', attributes: { name: 'Late' } },
    { type: 'actions', id: 'orders-0-refund', attributes: { name: 'Refund', type: 'single' } },
  ],
};

async function upload(document: unknown = uploadDocument) {
  return call('/forest/apimaps', { method: 'POST', body: JSON.stringify(document) });
}

describe('schema hash check and upload', () => {
  it('asks for the schema until it has this hash, then stops asking', async () => {
    const check = async () =>
      json(
        await call('/forest/apimaps/hashcheck', {
          method: 'POST',
          body: JSON.stringify({ schemaFileHash: 'hash-1' }),
        }),
      );

    expect(await check()).toEqual({ sendSchema: true });
    expect((await upload()).status).toBe(200);
    expect(await check()).toEqual({ sendSchema: false });
    expect(sandbox.schemaUploads()).toBe(1);

    const schema = sandbox.schema(SECRET);
    expect(schema?.collections[0]).toMatchObject({
      name: 'orders',
      fields: [{ field: 'id', type: 'Number' }],
      segments: [{ id: 'orders.Late', name: 'Late' }],
      actions: [{ id: 'orders-0-refund', name: 'Refund', type: 'single' }],
    });
    expect(schema?.meta).toEqual({ liana: 'canopy-agent', liana_version: '0.1.0' });
  });

  it('rejects an upload that does not resolve, naming the path', async () => {
    const broken = structuredClone(uploadDocument);
    broken.included = [];
    const response = await upload(broken);
    expect(response.status).toBe(400);
    expect((await json(response)).errors[0].detail).toBe(
      'Invalid schema upload: data[0].relationships.actions.data[0] is not in included.',
    );
  });
});

describe('authentication of agent calls', () => {
  it.each([
    ['missing', null],
    ['not 64 hex characters', 'secret'],
  ])('answers 401 when the env secret is %s', async (_case, secret) => {
    const response = await call('/liana/v1/ip-whitelist-rules', { secret });
    expect(response.status).toBe(401);
    expect((await json(response)).errors[0].detail).toMatch(/64-character hex env secret/);
  });

  it('answers unknown routes with a JSON 404 that names them', async () => {
    const response = await call('/liana/v9/nothing?x=1');
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({
      errors: [{ detail: 'Sandbox: no mock for GET /liana/v9/nothing?x=1' }],
    });
  });

  it('answers a malformed JSON body with 400', async () => {
    const response = await call('/forest/apimaps', { method: 'POST', body: '{"data": [' });
    expect(response.status).toBe(400);
  });
});

describe('permissions', () => {
  it('refuses environment permissions before any schema is known', async () => {
    const response = await call('/liana/v4/permissions/environment');
    expect(response.status).toBe(400);
  });

  it('grants everything by default and applies overrides to every role', async () => {
    await upload();
    await sandbox.setRoles([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'Support', collections: { orders: { deleteEnabled: false } } },
    ]);
    let permissions = await json(await call('/liana/v4/permissions/environment'));
    expect(permissions.collections.orders.collection).toEqual({
      browseEnabled: { roles: [1, 2] },
      readEnabled: { roles: [1, 2] },
      editEnabled: { roles: [1, 2] },
      addEnabled: { roles: [1, 2] },
      deleteEnabled: { roles: [1] },
      exportEnabled: { roles: [1, 2] },
    });
    expect(permissions.collections.orders.actions.Refund).toEqual({
      triggerEnabled: { roles: [1, 2] },
      triggerConditions: [],
      approvalRequired: { roles: [] },
      approvalRequiredConditions: [],
      userApprovalEnabled: { roles: [1, 2] },
      userApprovalConditions: [],
      selfApprovalEnabled: { roles: [1, 2] },
    });

    const condition = { field: 'amount', operator: 'LessThan', value: 500 };
    const override = await call('/permission-override', {
      method: 'POST',
      body: JSON.stringify({
        orders: {
          collection: { exportEnabled: false },
          actions: { Refund: { approvalRequired: true, triggerConditions: condition } },
        },
      }),
    });
    expect(override.status).toBe(200);
    permissions = await json(await call('/liana/v4/permissions/environment'));
    expect(permissions.collections.orders.collection.exportEnabled).toEqual({ roles: [] });
    expect(permissions.collections.orders.actions.Refund.approvalRequired).toEqual({
      roles: [1, 2],
    });
    expect(permissions.collections.orders.actions.Refund.triggerConditions).toEqual([
      { roleId: 1, filter: condition },
      { roleId: 2, filter: condition },
    ]);
  });

  it('lists the test user by default and the configured users after', async () => {
    expect(await json(await call('/liana/v4/permissions/users'))).toEqual([
      expect.objectContaining({
        id: 1,
        roleId: 1,
        permissionLevel: 'admin',
        fullName: 'Test User',
      }),
    ]);
    await sandbox.setUsers([
      {
        id: 7,
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Byron',
        permissionLevel: 'user',
        roleId: 2,
        tags: { region: 'EU' },
      },
    ]);
    expect(await json(await call('/liana/v4/permissions/users'))).toEqual([
      expect.objectContaining({ id: 7, roleId: 2, tags: { region: 'EU' }, fullName: 'Ada Byron' }),
    ]);
  });

  it('serves the scopes and team of a rendering', async () => {
    const scope = { field: 'region', operator: 'Equal', value: '{{currentUser.tags.region}}' };
    await sandbox.setScope('orders', scope, 12);
    await sandbox.setTeam({ id: 5, name: 'Support' }, 12);
    expect(await json(await call('/liana/v4/permissions/renderings/12'))).toEqual({
      team: { id: 5, name: 'Support' },
      collections: { orders: { scope, segments: [], liveQuerySegments: [] } },
      stats: [],
    });
    await sandbox.setScope('orders', null, 12);
    expect((await json(await call('/liana/v4/permissions/renderings/12'))).collections).toEqual({});
  });

  it('serves the segments built in the Console of a rendering', async () => {
    const filter = { field: 'status', operator: 'Equal', value: 'late' };
    await sandbox.setFilterSegments('orders', [{ name: 'Late', filter }], 13);
    expect((await json(await call('/liana/v4/permissions/renderings/13'))).collections).toEqual({
      orders: {
        scope: null,
        segments: [],
        liveQuerySegments: [],
        filterSegments: [{ id: 'orders.Late', name: 'Late', filter }],
      },
    });
    await sandbox.setFilterSegments('orders', [], 13);
    expect((await json(await call('/liana/v4/permissions/renderings/13'))).collections).toEqual({});
  });
});

describe('server-sent events', () => {
  it('sends heartbeats and tells subscribed agents what to drop', async () => {
    const controller = new AbortController();
    const response = await call('/liana/v4/subscribe-to-events', { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value);
      }
    };

    await readUntil('event: heartbeat');
    expect(sandbox.subscribers()).toBe(1);
    await sandbox.setScope('orders', { field: 'id', operator: 'Equal', value: 1 }, 3);
    await readUntil('event: refresh-renderings\ndata: {"renderingIds":[3]}');
    await sandbox.setUsers([]);
    await readUntil('event: refresh-users');
    await sandbox.setPermissionOverrides({ orders: { collection: { readEnabled: false } } });
    await readUntil('event: refresh-roles');
    controller.abort();
  });
});

describe('activity logs', () => {
  const log = (id: string, action = 'index') => ({
    id,
    createdAt: '2026-11-21T10:00:00.000Z',
    type: 'read',
    action,
    label: 'listed orders',
    userId: 1,
    renderingId: 1,
    collectionName: 'orders',
    recordIds: [],
  });

  it('stores batches once, even when a batch is retried', async () => {
    const send = (logs: unknown[]) =>
      call('/liana/v1/activity-logs', { method: 'POST', body: JSON.stringify({ logs }) });
    expect(await json(await send([log('1'), log('2', 'read')]))).toEqual({
      accepted: 2,
      duplicates: 0,
    });
    expect(await json(await send([log('2', 'read'), log('3', 'update')]))).toEqual({
      accepted: 1,
      duplicates: 1,
    });
    expect(sandbox.activityLogs().map((entry) => entry.action)).toEqual([
      'index',
      'read',
      'update',
    ]);
    await expect(
      sandbox.waitForActivityLogs((logs) => logs.length === 3, { timeoutMs: 100 }),
    ).resolves.toHaveLength(3);
    await expect(
      sandbox.waitForActivityLogs((logs) => logs.length === 4, { timeoutMs: 50 }),
    ).rejects.toThrow(/did not arrive within 50 ms; received 3/);
  });

  it('rejects an invalid batch and names the entry at fault', async () => {
    const response = await call('/liana/v1/activity-logs', {
      method: 'POST',
      body: JSON.stringify({ logs: [log('1'), log('2', 'browse')] }),
    });
    expect(response.status).toBe(400);
    expect((await json(response)).errors[0].detail).toBe(
      'Invalid activity-log batch: logs[1].action must be one of the activity-log actions (got "browse").',
    );
    expect(sandbox.activityLogs()).toEqual([]);
  });

  it('keeps environments apart', async () => {
    await call('/liana/v1/activity-logs', {
      method: 'POST',
      body: JSON.stringify({ logs: [log('1')] }),
    });
    await call('/liana/v1/activity-logs', {
      method: 'POST',
      secret: OTHER_SECRET,
      body: JSON.stringify({ logs: [log('1'), log('2')] }),
    });
    expect(sandbox.activityLogs(SECRET)).toHaveLength(1);
    expect(sandbox.activityLogs(OTHER_SECRET)).toHaveLength(2);
    expect(() => sandbox.activityLogs()).toThrow(/pass the env secret/);
  });
});

describe('OpenID discovery', () => {
  it('advertises endpoints on the host it was reached at, and registers clients', async () => {
    const discovery = await json(await call('/oidc/.well-known/openid-configuration'));
    expect(discovery).toMatchObject({
      issuer: sandbox.url,
      registration_endpoint: `${sandbox.url}/oidc/reg`,
    });
    const registration = await fetch(discovery.registration_endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token_endpoint_auth_method: 'none' }),
    });
    expect(registration.status).toBe(201);
    expect((await json(registration)).client_id).toEqual(expect.any(String));
  });
});
