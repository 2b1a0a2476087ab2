import request from 'supertest';
import {
  addProjectMember,
  createEnvironment,
  createProject,
  createUser,
  signSessionToken,
} from '../src';
import { startEmbeddedServer } from './helpers/embedded-server';
import { TEST_KEYS } from './helpers/test-server';

// The embedded store has one connection: every multi-statement write of the Console layouts must
// run on its transaction's own connection, or it waits for itself (a 503 after 5 s, or a hang).
it('publishes, reverts and copies layouts, and writes views and segments, on the embedded store', async () => {
  const { server, close } = await startEmbeddedServer('canopy-layouts-');
  try {
    const project = await createProject(server.knex, { name: 'Embedded', teams: ['A', 'B'] });
    await createEnvironment(server.knex, { projectId: project.id, name: 'Production' });
    const user = await createUser(server.knex, { email: 'e@example.com' });
    await addProjectMember(server.knex, {
      projectId: project.id,
      userId: user.id,
      permissionLevel: 'editor',
      teamNames: ['A', 'B'],
    });
    const token = signSessionToken(TEST_KEYS, {
      userId: user.id,
      sso: false,
      expiresAt: new Date(Date.now() + 600_000),
    });
    const env = '/v1/project/Embedded/environment/Production';
    const call = (
      method: 'get' | 'put' | 'post' | 'patch' | 'delete',
      path: string,
      body?: object,
    ) => {
      const req = request(server.app)
        [method](`${env}${path}`)
        .set('authorization', `Bearer ${token}`);
      return body ? req.send(body) : req;
    };
    const layout = { sidebar: { items: [{ type: 'collection', collection: 'orders' }] } };
    expect((await call('put', '/teams/A/layout/draft', { layout })).status).toBe(200);
    expect((await call('post', '/teams/A/layout/publish')).body.version).toBe(1);
    await call('put', '/teams/A/layout/draft', { layout: {} });
    expect((await call('post', '/teams/A/layout/publish')).body.version).toBe(2);
    const reverted = await call('post', '/teams/A/layout/versions/1/revert');
    expect([reverted.status, reverted.body.layout]).toEqual([201, layout]);
    const copied = await call('post', '/teams/B/layout/copy', { fromTeamName: 'A' });
    expect([copied.status, copied.body.origin]).toEqual([
      201,
      { kind: 'copy', teamName: 'A', version: 3 },
    ]);
    const segment = await call('post', '/teams/A/segments', {
      name: 'Late',
      collection: 'orders',
      filter: { field: 'late', operator: 'equal', value: true },
    });
    expect(segment.status).toBe(201);
    expect(
      (await call('patch', `/teams/A/segments/${segment.body.id}`, { name: 'Later' })).status,
    ).toBe(200);
    expect((await call('delete', `/teams/A/segments/${segment.body.id}`)).status).toBe(204);
    const view = await call('post', '/views', {
      name: 'Mine',
      collection: 'orders',
      teamName: 'A',
    });
    expect(view.status).toBe(201);
    expect((await call('patch', `/views/${view.body.id}`, { search: 'x' })).status).toBe(200);
    expect(
      (await call('put', '/teams/A/default-views/orders', { viewId: view.body.id })).status,
    ).toBe(200);
    expect((await call('delete', `/views/${view.body.id}`)).status).toBe(204);
    const logs = await server.knex('admin_logs').count({ n: '*' }).first();
    expect(Number(logs?.n)).toBe(8);
  } finally {
    await close();
  }
}, 120_000);
