import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createServerSandbox, type ServerSandbox } from '@canopy/testing';
import { adminSessionToken } from '../../test/fixtures';
import { createInMemoryDataSource } from '../toolkit/in-memory/in-memory-data-source';
import type { Agent } from './agent';
import { createAgent } from './create-agent';

const ENV_SECRET = '4'.repeat(64);
const AUTH_SECRET = 'routes-auth-secret';

/** The agent with the real REST interface, against the sandbox: what users run. */
describe('a started agent serving its REST interface', () => {
  let sandbox: ServerSandbox;
  let agent: Agent;
  let url: string;
  let token: string;

  beforeAll(async () => {
    sandbox = await createServerSandbox(0);
    agent = createAgent({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: sandbox.url,
      schemaPath: join(mkdtempSync(join(tmpdir(), 'canopy-routes-')), '.canopy-schema.json'),
      logger: () => {},
    })
      .addDataSource(
        createInMemoryDataSource({
          customers: {
            fields: {
              id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
              firstName: { type: 'Column', columnType: 'String' },
              lastName: { type: 'Column', columnType: 'String' },
            },
            records: [
              { id: 1, firstName: 'Ada', lastName: 'Lovelace' },
              { id: 2, firstName: 'Alan', lastName: 'Turing' },
            ],
          },
        }),
      )
      .customizeCollection('customers', (customers) =>
        customers.addField('fullName', {
          columnType: 'String',
          dependencies: ['firstName', 'lastName'],
          getValues: (records) => records.map((record) => `${record.firstName} ${record.lastName}`),
        }),
      )
      .mountOnStandaloneServer(0, '127.0.0.1');
    await agent.start();
    url = `http://127.0.0.1:${agent.standaloneServerPort}`;
    token = adminSessionToken(AUTH_SECRET);
  });

  afterAll(async () => {
    await agent.stop();
    await sandbox.close();
  });

  it('serves customized, filtered records with platform permissions and reports the activity', async () => {
    const response = await request(url)
      .get('/forest/customers')
      .query({
        timezone: 'Europe/Paris',
        'fields[customers]': 'id,fullName',
        filters: JSON.stringify({ field: 'lastName', operator: 'equal', value: 'Turing' }),
      })
      .set('authorization', `Bearer ${token}`)
      .expect(200);
    expect(response.body.data).toEqual([
      expect.objectContaining({
        type: 'customers',
        id: '2',
        attributes: expect.objectContaining({ fullName: 'Alan Turing' }),
      }),
    ]);
    const [log] = await sandbox.waitForActivityLogs((logs) => logs.length === 1, {
      envSecret: ENV_SECRET,
    });
    expect(log).toMatchObject({
      type: 'read',
      action: 'filter',
      collectionName: 'customers',
      userId: 1,
    });
  });

  it('refuses a request without a session token', async () => {
    await request(url).get('/forest/customers').query({ timezone: 'Europe/Paris' }).expect(401);
  });
});
