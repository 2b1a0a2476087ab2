import type { ServerSandbox } from '@canopy/testing';
import { createServerSandbox } from './platform-sandbox/create-server-sandbox';

const ENV_SECRET = '7c'.repeat(32);

/**
 * The server-backed platform sandbox (test/platform-sandbox) serves the Console segments a test
 * sets, as `filterSegments` of the rendering permissions (platform protocol §5.3), through the
 * Console API: in environments created after the call and in existing ones.
 */
describe('platform sandbox: Console segments', () => {
  let sandbox: ServerSandbox;

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  const rendering = async () => {
    const response = await fetch(`${sandbox.url}/liana/v4/permissions/renderings/1`, {
      headers: { 'forest-secret-key': ENV_SECRET },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { collections: Record<string, unknown> }).collections;
  };

  it('serves them before and after the environment exists, and removes them', async () => {
    const late = { field: 'status', operator: 'equal', value: 'late' };
    await sandbox.setFilterSegments('orders', [{ name: 'Late', filter: late }]);
    expect(await rendering()).toEqual({
      orders: {
        scope: null,
        segments: [],
        liveQuerySegments: [],
        filterSegments: [{ id: 'orders.Late', name: 'Late', filter: late }],
      },
    });

    const big = { field: 'total', operator: 'greater_than', value: 100 };
    await sandbox.setFilterSegments('orders', [{ name: 'Big', filter: big }]);
    expect(await rendering()).toEqual({
      orders: expect.objectContaining({
        filterSegments: [{ id: 'orders.Big', name: 'Big', filter: big }],
      }),
    });

    await sandbox.setFilterSegments('orders', []);
    expect(await rendering()).toEqual({});
  }, 60_000);
});
