import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import type { AgentServices } from '../platform/agent-services';
import { ShopDataSource } from '../schema/shop-fixture';
import { AgentPipeline } from '../http/agent-pipeline';
import { RouteTable } from '../http/pipeline/route-table';
import { sendJson } from '../http/pipeline/send-json';
import { Agent } from './agent';
import { resolveAgentOptions } from './agent-options';

const ENV_SECRET = '2'.repeat(64);
// `eventually` waits up to 10 s for what takes milliseconds, so that a loaded machine does not
// fail it; the tests' own time limit is above that.
jest.setTimeout(30_000);

/** Called when a request to `/forest/slow` has reached its handler. */
let slowStarted: () => void = () => {};

/**
 * A stand-in for the REST interface that exposes what the lifecycle hands to it: each request
 * records an activity log and answers with the platform users the permission source sees.
 */
/** The routes the agent's lifecycle is tested with, in a pipeline that lets every request in. */
function probePipeline(services: AgentServices): AgentPipeline {
  const routes = new RouteTable('/forest')
    .add('GET', '/users', async (_request, response) => {
      services.activityLogs.record({
        type: 'read',
        action: 'index',
        label: 'listed users',
        userId: 1,
        renderingId: 1,
        collectionName: 'customers',
        recordIds: [],
      });
      sendJson(
        response,
        (await services.permissions.getUsers()).map((user) => user.id),
      );
    })
    .add('GET', '/slow', async (_request, response) => {
      slowStarted();
      await new Promise((resolve) => setTimeout(resolve, 200));
      services.activityLogs.record({
        type: 'write',
        action: 'update',
        label: 'slow update',
        userId: 1,
        renderingId: null,
        collectionName: 'orders',
        recordIds: ['10'],
      });
      sendJson(response, { done: true });
    })
    .add('GET', '/cors', async (_request, response) => {
      sendJson(response, services.options.corsOrigins);
    })
    .add('GET', '/ip/:ip', async (_request, response, [ip]) => {
      sendJson(response, {
        whitelist: services.ipWhitelist !== null,
        allowed: services.ipWhitelist?.isAllowed(ip as string) ?? true,
      });
    });
  return new AgentPipeline(routes, {
    entry: { cors: () => false, accessLog: null },
    checkSession: () => {},
    ipWhitelist: null,
    readBody: async () => false,
    translateError: (error, _request, response) =>
      sendJson(response, { error: String(error) }, 500),
  });
}

describe('Agent and the platform', () => {
  let sandbox: ServerSandbox;
  let agent: Agent;
  let app: express.Express;

  beforeEach(async () => {
    sandbox = await createServerSandbox(0);
    agent = new Agent(
      resolveAgentOptions(
        {
          authSecret: 'secret',
          envSecret: ENV_SECRET,
          serverUrl: sandbox.url,
          schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-agent-platform-')), 'schema.json'),
          logger: () => {},
          allowedOrigins: ['https://Admin.example.com:443'],
        },
        { env: {} },
      ),
      {
        buildDataSource: async () => new ShopDataSource(),
        createPipeline: probePipeline,
        platform: { activityLogs: { flushIntervalMs: 20, batchSize: 3 } },
      },
    );
    app = express();
    agent.mountOnExpress(app);
  });

  afterEach(async () => {
    await agent.stop();
    await sandbox.close();
  });

  it('sends activity logs in batches while serving, and flushes the rest on stop', async () => {
    await agent.start();
    for (let index = 0; index < 7; index += 1) await request(app).get('/forest/users').expect(200);
    await sandbox.waitForActivityLogs((logs) => logs.length >= 6, { envSecret: ENV_SECRET });
    await agent.stop();
    const logs = sandbox.activityLogs(ENV_SECRET);
    expect(logs).toHaveLength(7);
    expect(logs[0]).toMatchObject({ action: 'index', collectionName: 'customers', userId: 1 });
  });

  it('lets requests in flight finish on stop and flushes their activity logs', async () => {
    await agent.start();
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const slow = request(app).get('/forest/slow');
    const answered = slow.then((response) => response);
    // Stopped once the request is in its handler (a fixed wait could end before it got there).
    await started;
    await agent.stop();
    expect((await answered).body).toEqual({ done: true });
    expect(sandbox.activityLogs(ENV_SECRET).map((log) => log.label)).toEqual(['slow update']);
    await request(app).get('/forest/users').expect(503);
  });

  it('sees permission changes announced by the platform event stream', async () => {
    await agent.start();
    await eventually(() => sandbox.subscribers(ENV_SECRET) === 1);
    await request(app).get('/forest/users').expect(200, [1]);
    await sandbox.setUsers([
      { id: 5, email: 'x@y.z', firstName: 'X', lastName: 'Y', permissionLevel: 'user', roleId: 1 },
    ]);
    await eventually(async () => (await request(app).get('/forest/users')).text === '[5]');
    await agent.stop();
    await eventually(() => sandbox.subscribers(ENV_SECRET) === 0);
  });

  it("allows the Console's origin (the platform's) and the allowedOrigins option, no other", async () => {
    await agent.start();
    await request(app)
      .get('/forest/cors')
      .expect(200, [new URL(sandbox.url).origin, 'https://admin.example.com']);
  });

  it('fetches the IP whitelist at start and again at restart', async () => {
    await agent.start();
    await request(app).get('/forest/ip/10.0.0.1').expect(200, { whitelist: false, allowed: true });
    await sandbox.setIpWhitelist([{ type: 2, range: '10.0.0.0/8' }]);
    await agent.restart();
    await request(app).get('/forest/ip/10.0.0.1').expect(200, { whitelist: true, allowed: true });
    await request(app)
      .get('/forest/ip/192.168.1.1')
      .expect(200, { whitelist: true, allowed: false });
  });
});

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
