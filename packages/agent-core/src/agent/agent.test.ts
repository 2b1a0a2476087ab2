import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { createAgentPipeline } from '../http';
import { isPlatformError } from '../platform/platform-error';
import { ShopDataSource } from '../schema/shop-fixture';
import { Agent, type AgentDependencies } from './agent';
import { isAgentError } from './agent-error';
import { type AgentOptions, resolveAgentOptions } from './agent-options';

const ENV_SECRET = '1'.repeat(64);
const AUTH_SECRET = 'agent-test-auth-secret';

let sandbox: ServerSandbox;
let directory: string;
const lines: string[] = [];

beforeAll(async () => {
  sandbox = await createServerSandbox(0);
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'canopy-agent-'));
  lines.length = 0;
});

function makeAgent(
  options: AgentOptions = {},
  dataSources: ShopDataSource[] = [],
  dependencies: Partial<AgentDependencies> = {},
) {
  const built: ShopDataSource[] = [];
  const agent = new Agent(
    resolveAgentOptions(
      {
        authSecret: AUTH_SECRET,
        envSecret: ENV_SECRET,
        serverUrl: sandbox.url,
        schemaPath: join(directory, '.canopy-schema.json'),
        logger: (level, message) => lines.push(`${level} ${message}`),
        loggerLevel: 'Debug',
        ...options,
      },
      { env: {} },
    ),
    {
      buildDataSource: async () => {
        const dataSource = dataSources.shift() ?? new ShopDataSource();
        built.push(dataSource);
        return dataSource;
      },
      createPipeline: createAgentPipeline,
      platform: { retries: 0, activityLogs: { flushIntervalMs: 10 } },
      ...dependencies,
    },
  );
  return { agent, built };
}

describe('Agent lifecycle against the sandbox', () => {
  it('starts, writes and uploads the schema, restarts in place, and stops leaving nothing open', async () => {
    const uploadsBefore = sandbox.schemaUploads(ENV_SECRET);
    const { agent, built } = makeAgent({ typingsPath: join(directory, 'typings.ts') }, [
      new ShopDataSource(),
      new ShopDataSource(),
      new ShopDataSource({ extraOrderField: 'note' }),
    ]);
    agent.mountOnStandaloneServer(0, '127.0.0.1');
    expect(agent.standaloneServerPort).toBeNull();
    await agent.start();

    const port = agent.standaloneServerPort;
    expect(port).toEqual(expect.any(Number));
    const url = `http://127.0.0.1:${port}`;
    await request(url).get('/forest/').expect(200, { error: null, message: 'Agent is running' });

    const schemaPath = join(directory, '.canopy-schema.json');
    const written = JSON.parse(readFileSync(schemaPath, 'utf8'));
    expect(written.collections.map((collection: { name: string }) => collection.name)).toEqual([
      'customers',
      'orders',
    ]);
    expect(written.meta.liana).toBe('canopy-agent');
    expect(readFileSync(join(directory, 'typings.ts'), 'utf8')).toContain("'orders': {");
    expect(sandbox.schemaUploads(ENV_SECRET)).toBe(uploadsBefore + 1);
    expect(sandbox.schema(ENV_SECRET)?.collections.map((collection) => collection.name)).toEqual([
      'customers',
      'orders',
    ]);

    const mtime = statSync(schemaPath).mtimeMs;
    await agent.restart();
    expect(agent.standaloneServerPort).toBe(port);
    expect(sandbox.schemaUploads(ENV_SECRET)).toBe(uploadsBefore + 1);
    expect(statSync(schemaPath).mtimeMs).toBe(mtime);
    expect(built[0]?.closed).toBe(true);
    await request(url).get('/forest/').expect(200);

    await agent.restart();
    expect(sandbox.schemaUploads(ENV_SECRET)).toBe(uploadsBefore + 2);
    expect(readFileSync(schemaPath, 'utf8')).toContain('"note"');

    await agent.stop();
    expect(built[2]?.closed).toBe(true);
    expect(agent.isRunning).toBe(false);
    await expect(request(url).get('/forest/')).rejects.toThrow(/ECONNREFUSED/);
    await agent.stop();
  });

  it('rejects a clear error when the platform is unreachable, leaving nothing open', async () => {
    const closed = await createServerSandbox(0);
    const deadUrl = closed.url;
    await closed.close();
    const { agent, built } = makeAgent({ serverUrl: deadUrl });
    agent.mountOnStandaloneServer(0, '127.0.0.1');
    const error = await agent.start().catch((caught: unknown) => caught);
    expect(isPlatformError(error, 'PLATFORM_UNREACHABLE')).toBe(true);
    expect((error as Error).message).toContain(`${deadUrl}/`);
    expect((error as Error).message).not.toContain(ENV_SECRET);
    expect(built[0]?.closed).toBe(true);
    expect(agent.standaloneServerPort).toBeNull();
    expect(lines.some((line) => line.startsWith('Error The agent failed to start'))).toBe(true);
  });

  it('needs a server URL to start, and refuses a second start', async () => {
    const { agent } = makeAgent({ serverUrl: undefined });
    const error = await agent.start().catch((caught: unknown) => caught);
    expect(isAgentError(error, 'SERVER_URL_MISSING')).toBe(true);
    expect((error as Error).message).toContain('CANOPY_SERVER_URL');

    const { agent: started } = makeAgent();
    await started.start();
    expect(
      isAgentError(
        await started.start().catch((caught: unknown) => caught),
        'AGENT_ALREADY_STARTED',
      ),
    ).toBe(true);
    expect(() => started.mountOnStandaloneServer(0)).toThrow(/before start\(\)/);
    await started.stop();
  });

  it('mounts on an express application without touching its other routes', async () => {
    const app = express();
    app.get('/hello', (_request, response) => {
      response.send('world');
    });
    const { agent } = makeAgent();
    agent.mountOnExpress(app);
    expect(() => agent.mountOnStandaloneServer(0)).toThrow(/already mounted/);
    await request(app).get('/forest/').expect(503);
    await agent.start();
    await request(app).get('/forest/').expect(200);
    await request(app).get('/hello').expect(200, 'world');
    await agent.stop();
    await request(app).get('/forest/').expect(503);
  });

  it('keeps serving the previous version when a restart fails', async () => {
    const queue = [new ShopDataSource()];
    const { agent } = makeAgent({}, queue);
    const app = express();
    agent.mountOnExpress(app);
    await agent.start();
    const broken = new ShopDataSource();
    broken.getCollection('orders').schema.actions['Refund order']!.submitButtonLabel = 'x'.repeat(
      60,
    );
    queue.push(broken);
    await expect(agent.restart()).rejects.toThrow(/at most 50/);
    expect(broken.closed).toBe(true);
    await request(app).get('/forest/').expect(200);
    await agent.stop();
  });
});

describe('production mode and generateSchemaOnly', () => {
  it('refuses to start in production without a schema file', async () => {
    const { agent, built } = makeAgent({ isProduction: true });
    const error = await agent.start().catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('SCHEMA_FILE_MISSING');
    expect((error as Error).message).toContain('generateSchemaOnly');
    expect(built[0]?.closed).toBe(true);
  });

  it('refuses to start with clashing action slugs under useUnsafeActionEndpoint, even in production', async () => {
    const { agent: generator } = makeAgent({ serverUrl: undefined });
    await generator.generateSchemaOnly();
    const clashing = new ShopDataSource();
    clashing.getCollection('orders').schema.actions['refund order'] = {
      scope: 'Global',
      generateFile: false,
      staticForm: false,
    };
    const { agent } = makeAgent({ isProduction: true, useUnsafeActionEndpoint: true }, [clashing]);
    const error = await agent.start().catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('DUPLICATE_ACTION_SLUG');
    expect((error as Error).message).toContain("'Refund order' and 'refund order' of 'orders'");
  });

  it('reads the schema file in production and never rebuilds it', async () => {
    const schemaPath = join(directory, '.canopy-schema.json');
    const { agent: generator } = makeAgent({
      serverUrl: undefined,
      typingsPath: join(directory, 't.ts'),
    });
    await generator.generateSchemaOnly();
    const content = readFileSync(schemaPath, 'utf8');
    expect(existsSync(join(directory, 't.ts'))).toBe(true);

    const { agent } = makeAgent({ isProduction: true }, [
      new ShopDataSource({ extraOrderField: 'note' }),
    ]);
    await agent.start();
    expect(readFileSync(schemaPath, 'utf8')).toBe(content);
    expect(JSON.stringify(sandbox.schema(ENV_SECRET))).not.toContain('"note"');
    await agent.stop();
  });

  it('updateTypesOnFileSystem writes typings to the given path and depth', async () => {
    const { agent, built } = makeAgent({ serverUrl: undefined });
    const path = join(directory, 'types.d.ts');
    await agent.updateTypesOnFileSystem(path, 0);
    const typings = readFileSync(path, 'utf8');
    expect(typings).toContain("'orders': {");
    expect(typings).not.toContain("'customer:email'");
    expect(built[0]?.closed).toBe(true);
  });

  it('generateSchemaOnly always rebuilds, even in production, and contacts nothing', async () => {
    const schemaPath = join(directory, '.canopy-schema.json');
    writeFileSync(schemaPath, '{"collections": [], "meta": {}}');
    const { agent } = makeAgent({ isProduction: true, serverUrl: 'http://127.0.0.1:9' });
    await agent.generateSchemaOnly();
    expect(JSON.parse(readFileSync(schemaPath, 'utf8')).collections).toHaveLength(2);
  });
});
