import express from 'express';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { PlatformEventStream } from './platform-event-stream';
import { PlatformHttpClient } from './platform-http-client';
import { PlatformPermissionSource } from './platform-permission-source';

const SECRET = 'd'.repeat(64);
const lines: string[] = [];
const logger = (level: string, message: string) => lines.push(`${level} ${message}`);

// `eventually` waits up to 10 s for what takes milliseconds, so that a loaded machine does not
// fail it; the tests' own time limit is above that.
jest.setTimeout(30_000);

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PlatformPermissionSource with the event stream, against the sandbox', () => {
  let sandbox: ServerSandbox;
  let http: PlatformHttpClient;
  let permissions: PlatformPermissionSource;
  let stream: PlatformEventStream;
  const events: string[] = [];
  let reconnects = 0;

  beforeEach(async () => {
    sandbox = await createServerSandbox(0);
    http = new PlatformHttpClient({
      serverUrl: sandbox.url,
      envSecret: SECRET,
      logger,
      retryDelayMs: 5,
    });
    permissions = new PlatformPermissionSource(http, logger);
    stream = new PlatformEventStream(
      http,
      logger,
      {
        onEvent: (name, data) => {
          events.push(name);
          permissions.handleEvent(name, data);
        },
        onReconnect: () => {
          reconnects += 1;
          permissions.invalidateAll();
        },
      },
      { reconnectDelayMs: 50, maxReconnectDelayMs: 100 },
    );
    await http.request('/agent-schema', {
      method: 'POST',
      body: { collections: [{ name: 'orders', actions: [{ name: 'Refund' }] }] },
    });
    stream.start();
    await stream.waitUntilOpen();
  });

  afterEach(async () => {
    await stream.close();
    http.close();
    await sandbox.close();
    events.length = 0;
    reconnects = 0;
  });

  it('fetches lazily, caches, and drops the users cache on refresh-users', async () => {
    const [first] = await permissions.getUsers();
    expect(first).toMatchObject({ id: 1, roleId: 1 });
    await sandbox.setUsers([
      { id: 7, email: 'a@b.c', firstName: 'A', lastName: 'B', permissionLevel: 'user', roleId: 2 },
    ]);
    await eventually(() => events.includes('refresh-users'));
    expect((await permissions.getUsers()).map((user) => user.id)).toEqual([7]);
  });

  it('drops environment permissions on refresh-roles and renderings on refresh-renderings', async () => {
    const before = await permissions.getEnvironmentPermissions();
    expect(before).not.toBe(true);
    await sandbox.setPermissionOverrides(
      { orders: { collection: { deleteEnabled: false } } },
      SECRET,
    );
    await eventually(() => events.includes('refresh-roles'));
    const after = await permissions.getEnvironmentPermissions();
    expect(after).not.toEqual(before);

    expect((await permissions.getRenderingPermissions(1)).collections).toEqual({});
    await sandbox.setScope('orders', { field: 'region', operator: 'Equal', value: 'EU' }, 1);
    await eventually(() => events.includes('refresh-renderings'));
    expect((await permissions.getRenderingPermissions(1)).collections.orders?.scope).toEqual({
      field: 'region',
      operator: 'Equal',
      value: 'EU',
    });
  });

  it('serves cached permissions while the platform is down, and reconnects to a new one', async () => {
    await permissions.getUsers();
    const port = sandbox.port;
    await sandbox.close();
    expect((await permissions.getUsers())[0]?.id).toBe(1);

    sandbox = await createServerSandbox(port);
    await sandbox.setUsers([
      { id: 9, email: 'n@b.c', firstName: 'N', lastName: 'B', permissionLevel: 'user', roleId: 1 },
    ]);
    await eventually(() => reconnects === 1 && stream.isOpen);
    expect((await permissions.getUsers()).map((user) => user.id)).toEqual([9]);
  });
});

describe('PlatformEventStream status handling', () => {
  it('stops for good on 404 (unknown environment) with an error log', async () => {
    const app = express();
    let calls = 0;
    app.get('/liana/v4/subscribe-to-events', (_request, response) => {
      calls += 1;
      response.status(404).json({ errors: [{ detail: 'no environment' }] });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as { port: number }).port;
    const http = new PlatformHttpClient({
      serverUrl: `http://127.0.0.1:${port}`,
      envSecret: SECRET,
      logger,
    });
    const stream = new PlatformEventStream(
      http,
      logger,
      { onEvent: () => {}, onReconnect: () => {} },
      {
        reconnectDelayMs: 10,
      },
    );
    lines.length = 0;
    stream.start();
    await eventually(() => lines.some((line) => line.includes('answered 404')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(1);
    expect(lines.find((line) => line.includes('404'))).toMatch(/^Error .*matches no environment/);
    await stream.close();
    http.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
