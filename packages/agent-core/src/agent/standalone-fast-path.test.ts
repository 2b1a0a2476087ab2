import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { adminSessionToken } from '../../test/fixtures';
import { createInMemoryDataSource } from '../toolkit/in-memory/in-memory-data-source';
import type { Agent } from './agent';
import { createAgent } from './create-agent';

const ENV_SECRET = '5'.repeat(64);
const AUTH_SECRET = 'fast-path-auth-secret';

function build(sandbox: ServerSandbox, lines: string[]): Agent {
  return createAgent({
    authSecret: AUTH_SECRET,
    envSecret: ENV_SECRET,
    serverUrl: sandbox.url,
    schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-fast-path-')), '.canopy-schema.json'),
    loggerLevel: 'Info',
    logger: (level, message) => {
      if (level === 'Info' && /^\[\d{3}\] /.test(message))
        lines.push(message.replace(/ - .*$/, ''));
    },
  }).addDataSource(
    createInMemoryDataSource({
      customers: {
        fields: {
          id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
          name: { type: 'Column', columnType: 'String' },
        },
        records: [
          { id: 1, name: 'Ada' },
          { id: 2, name: 'Alan' },
        ],
      },
    }),
  );
}

/**
 * The standalone server answers list, count and get one without express's application (the
 * pipeline's route table); every answer must be the one the same agent gives inside an
 * express application.
 */
describe('the standalone server fast path', () => {
  let sandbox: ServerSandbox;
  let standalone: Agent;
  let embedded: Agent;
  let server: Server;
  let standaloneUrl: string;
  let embeddedUrl: string;
  let token: string;
  const standaloneLines: string[] = [];
  const embeddedLines: string[] = [];

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
    standalone = build(sandbox, standaloneLines).mountOnStandaloneServer(0, '127.0.0.1');
    const app = express();
    app.disable('x-powered-by');
    embedded = build(sandbox, embeddedLines).mountOnExpress(app);
    await standalone.start();
    await embedded.start();
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    standaloneUrl = `http://127.0.0.1:${standalone.standaloneServerPort}`;
    embeddedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    token = adminSessionToken(AUTH_SECRET);
  });

  afterAll(async () => {
    await standalone.stop();
    await embedded.stop();
    await new Promise((resolve) => server.close(resolve));
    await sandbox.close();
  });

  const paths = [
    '/forest/customers?timezone=Europe/Paris',
    '/forest/customers/?timezone=Europe/Paris&sort=-name',
    '/forest/customers/count?timezone=Europe/Paris',
    '/forest/customers/2?timezone=Europe/Paris',
    '/forest/customers/3?timezone=Europe/Paris',
    '/forest/customers/abc?timezone=Europe/Paris',
    '/forest/customers/1',
    '/forest/unknown?timezone=Europe/Paris',
    '/forest/customers/%E0?timezone=Europe/Paris',
    '/forest/customers.csv?timezone=Europe/Paris&header=id,name',
    '/forest',
  ];

  it.each(paths)('GET %s answers as inside an express application', async (path) => {
    const [fast, reference] = await Promise.all([
      request(standaloneUrl).get(path).set('Authorization', `Bearer ${token}`),
      request(embeddedUrl).get(path).set('Authorization', `Bearer ${token}`),
    ]);
    const strip = (headers: Record<string, string>) => {
      const { date: _date, 'x-forest-correlation-id': correlation, ...rest } = headers;
      return { rest, hasCorrelation: correlation !== undefined };
    };
    expect(fast.status).toBe(reference.status);
    expect(strip(fast.headers)).toEqual(strip(reference.headers));
    expect(fast.text).toBe(reference.text);
  });

  it('answers a JSON:API 404 outside the mount point, where it owns the server', async () => {
    const answer = await request(standaloneUrl).get('/elsewhere');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({
      errors: [{ name: 'NotFoundError', detail: 'Not Found', status: 404 }],
    });
  });

  it('answers without a token as inside an express application', async () => {
    const [fast, reference] = await Promise.all([
      request(standaloneUrl).get('/forest/customers/1'),
      request(embeddedUrl).get('/forest/customers/1'),
    ]);
    expect(fast.status).toBe(401);
    expect(fast.text).toBe(reference.text);
  });

  it('logs the same access lines', () => {
    expect(standaloneLines.length).toBeGreaterThan(paths.length - 1);
    expect(standaloneLines).toEqual(embeddedLines);
  });
});
