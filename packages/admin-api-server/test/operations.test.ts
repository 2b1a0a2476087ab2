import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { insertActivityLogs, type AdminApiServer } from '../src';
import { apiClient, type ApiClient } from './helpers/api-client';
import {
  validateAgainstOurDocument,
  validateContractItem,
  validateFetchResponse,
} from './helpers/openapi-validator';
import { seed, startTestServer, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let api: ApiClient;
let s: Seed;

beforeAll(async () => {
  server = await startTestServer(db());
  api = apiClient(server.app);
  s = await seed(server);
});
afterAll(() => server.close());

it('answers /health after a database round trip', async () => {
  const res = await api.get('/health');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ok' });
});

it('serves an OpenAPI 3.1 document describing every route', async () => {
  const res = await api.get('/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(Object.keys(res.body.paths)).toEqual(
    expect.arrayContaining([
      '/v1/project/{projectName}/environment/{environmentName}/activity-logs',
      '/v1/project/{projectName}/environment/{environmentName}/activity-logs/export',
      '/v1/project/{projectName}/environment/{environmentName}/activity-logs/integrity',
      '/v1/project/{projectName}/admin-logs',
      '/v1/project/{projectName}/environment/{environmentName}/notes',
      '/v1/project/{projectName}/environment/{environmentName}/notes/{noteId}',
      '/v1/project/{projectName}/environment/{environmentName}/notes/{noteId}/messages',
      '/v1/project/{projectName}/application-tokens',
      '/health',
    ]),
  );
  const list =
    res.body.paths['/v1/project/{projectName}/environment/{environmentName}/activity-logs'].get;
  expect(list.operationId).toBe('listActivityLogs');
  expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining([
      'limit',
      'userEmail',
      'userId',
      'teamName',
      'collectionName',
      'recordId',
      'action',
      'type',
      'createdAt.lte',
      'cursor',
    ]),
  );
});

it('returns a request id, echoing a well-formed one given by the caller', async () => {
  const generated = await api.get('/health');
  expect(generated.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const given = await api.get('/health', { headers: { 'Request-Id': 'abc-123' } });
  expect(given.headers['request-id']).toBe('abc-123');
  const hostile = await api.get('/health', { headers: { 'Request-Id': 'a b\tc' } });
  expect(hostile.headers['request-id']).not.toBe('a b\tc');
});

it('answers unknown routes with a JSON 404', async () => {
  const res = await request(server.app).get('/v2/nothing');
  expect(res.status).toBe(404);
  expect(res.body).toEqual({
    code: 'route_not_found',
    message: 'No route serves GET /v2/nothing.',
  });
});

it('sets security headers and no x-powered-by', async () => {
  const res = await api.get('/health');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-powered-by']).toBeUndefined();
});

it('sends rate-limit headers on errors of an authenticated request too', async () => {
  const res = await api.get(`/v1/project/${s.project.name}/environment/Nowhere/notes`, {
    token: s.tokens.all,
  });
  expect(res.status).toBe(404);
  expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
});

it('lets an in-flight export finish when the server closes, then refuses new connections', async () => {
  const own = await startTestServer(db());
  const project = await seed(own);
  const team = (await own.knex('teams').where({ project_id: project.project.id }).first()).id;
  await insertActivityLogs(
    own.knex,
    project.project.id,
    Array.from({ length: 5000 }, (_, i) => ({
      environmentId: project.production.id,
      userId: project.admin.id,
      teamId: team,
      type: 'read' as const,
      action: 'read' as const,
      recordIds: [String(i)],
    })),
  );
  const port = await own.listen(0, '127.0.0.1');
  const path = `/v1/project/${project.project.name}/environment/Production/activity-logs/export`;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { Authorization: `Bearer ${project.tokens.all}` },
  });
  const closing = own.close();
  const text = await response.text();
  await closing;
  validateFetchResponse('get', path, response, text);
  expect(response.status).toBe(200);
  expect(text.trimEnd().split('\n')).toHaveLength(5000);
  await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
});

describe('the response validators themselves', () => {
  it('reject a body our document does not allow', () => {
    const response = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { status: 'ok', extra: 1 },
    };
    expect(() => validateAgainstOurDocument('get', '/health', response as never)).toThrow(
      /does not match/,
    );
    expect(() =>
      validateAgainstOurDocument('get', '/health', { ...response, status: 418 } as never),
    ).toThrow(/does not document status 418/);
  });

  it('reject an item the published contract does not allow', () => {
    expect(() =>
      validateContractItem('adminLog', {
        object: 'adminLog',
        id: '1',
        type: 'add',
        resource: 'team',
        initiator: 'administrator',
        createdAt: '2026-01-01T00:00:00.000Z',
        extra: true,
      }),
    ).toThrow(/published contract/);
  });
});
