import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import {
  addProjectMember,
  createTeam,
  createUser,
  issueEnvironmentSecret,
  signSessionToken,
  type AdminApiServer,
  type PermissionLevel,
} from '../src';
import { buildOpenApiDocument } from '../src/openapi/document';
import { validateAgainstOurDocument } from './helpers/openapi-validator';
import { seed, startTestServer, TEST_KEYS, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let shop: Seed;
let other: Seed;
const s: Record<string, string> = {};

const sessionOf = (userId: number) =>
  signSessionToken(TEST_KEYS, { userId, sso: false, expiresAt: new Date(Date.now() + 600_000) });

/** A request as `who`, checked against our OpenAPI document. */
function as(who: string) {
  const send = async (
    method: 'get' | 'put' | 'post' | 'patch' | 'delete',
    path: string,
    body?: unknown,
  ) => {
    let req = request(server.app)[method](path).set('authorization', `Bearer ${s[who]}`);
    if (body !== undefined) req = req.send(body as object);
    const res = await req;
    validateAgainstOurDocument(method, path, res);
    return res;
  };
  return {
    get: (path: string) => send('get', path),
    put: (path: string, body: unknown) => send('put', path, body),
    post: (path: string, body?: unknown) => send('post', path, body ?? {}),
    patch: (path: string, body: unknown) => send('patch', path, body),
    delete: (path: string) => send('delete', path),
  };
}

const ENV = '/v1/project/Shop/environment/Production';
const SUPPORT = `${ENV}/teams/Support`;
const SALES = `${ENV}/teams/Sales`;

const layoutV1 = {
  sidebar: {
    items: [
      { type: 'collection', collection: 'orders', displayName: 'Orders', icon: 'cart' },
      {
        type: 'group',
        name: 'People',
        collections: [
          { type: 'collection', collection: 'customers' },
          { type: 'collection', collection: 'audit', hidden: true },
        ],
      },
    ],
  },
  collections: {
    orders: {
      table: {
        columns: [{ field: 'id', width: 80 }, { field: 'status' }, { field: 'total' }],
        defaultSort: { field: 'createdAt', ascending: false },
        pageSize: 25,
        density: 'compact',
        firstSegment: 'Open',
        rowColours: [
          { filter: { field: 'status', operator: 'equal', value: 'late' }, colour: '#ff0000' },
        ],
      },
      fields: {
        status: {
          display: { type: 'badge', settings: { colours: { paid: '#00aa00', late: '#ff0000' } } },
          edit: { type: 'text' },
        },
        total: { display: { type: 'currency', settings: { currencyField: 'currency' } } },
        paidAt: { display: { type: 'datetime', settings: { format: 'yyyy-MM-dd HH:mm' } } },
        lines: { display: { type: 'has-many-count' } },
        site: { display: { type: 'link', settings: { urlTemplate: 'https://x.test/{{id}}' } } },
      },
      recordPage: {
        sections: [{ title: 'Summary', fields: ['id', 'status', 'total'] }],
        tabs: [
          { related: 'payments', title: 'Payments first' },
          { title: 'Shipping', sections: [{ fields: ['address'] }] },
        ],
        relatedTabs: ['lines', 'refunds'],
        readOnlyFields: ['total'],
      },
      forms: {
        create: { sections: [{ fields: ['status', 'total'] }] },
        edit: { sections: [{ fields: ['status', 'total'] }], readOnlyInEdit: ['total'] },
      },
    },
  },
};
const layoutV2 = { sidebar: { items: [{ type: 'collection', collection: 'customers' }] } };

async function member(name: string, level: PermissionLevel, teamNames: string[]) {
  const user = await createUser(server.knex, { email: `${name}@shop.example.com` });
  await addProjectMember(server.knex, {
    projectId: shop.project.id,
    userId: user.id,
    permissionLevel: level,
    teamNames,
  });
  s[name] = sessionOf(user.id);
  return user.id;
}

beforeAll(async () => {
  server = await startTestServer(db());
  shop = await seed(server, 'Shop');
  other = await seed(server, 'Other');
  await createTeam(server.knex, { projectId: shop.project.id, name: 'Sales' });
  s.admin = sessionOf(shop.admin.id); // an admin of no team
  s.editor = sessionOf(shop.editor.id); // editor of Support
  await member('editor2', 'editor', ['Support']);
  await member('support', 'user', ['Support']);
  await member('manager', 'manager', ['Support']);
  await member('developer', 'developer', ['Sales']);
  s.outsider = sessionOf(other.admin.id);
}, 60_000);

afterAll(() => server.close());

describe('team layouts', () => {
  it('keeps a draft to its editor until it is published, then every member of the team reads it', async () => {
    expect((await as('support').get(`${SUPPORT}/layout`)).body).toEqual({
      teamName: 'Support',
      published: null,
    });
    const saved = await as('editor').put(`${SUPPORT}/layout/draft`, { layout: layoutV1 });
    expect([saved.status, saved.body.layout, saved.body.baseVersion]).toEqual([
      200,
      layoutV1,
      null,
    ]);
    expect((await as('editor').get(`${SUPPORT}/layout/draft`)).body.layout).toEqual(layoutV1);
    // Another editor of the team has no draft; members see nothing published yet.
    expect((await as('editor2').get(`${SUPPORT}/layout/draft`)).body.layout).toBeNull();
    expect((await as('support').get(`${SUPPORT}/layout`)).body.published).toBeNull();
    await as('editor2')
      .post(`${SUPPORT}/layout/publish`)
      .then((res) => expect(res.status).toBe(409));

    const published = await as('editor').post(`${SUPPORT}/layout/publish`);
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({
      teamName: 'Support',
      version: 1,
      layout: layoutV1,
      origin: { kind: 'publish' },
      publishedBy: { id: shop.editor.id, email: shop.editor.email },
    });
    const read = await as('support').get(`${SUPPORT}/layout`);
    expect(read.body.published.layout).toEqual(layoutV1);
    // Publishing consumed the draft.
    expect((await as('editor').get(`${SUPPORT}/layout/draft`)).body.layout).toBeNull();
    const log = await server.knex('admin_logs').orderBy('id', 'desc').first();
    expect(log).toMatchObject({ resource: 'console', type: 'update', user_id: shop.editor.id });
    expect(log.new_value).toEqual({
      environmentName: 'Production',
      teamName: 'Support',
      setting: 'layout',
      name: null,
      version: 1,
    });
  });

  it('lets only admins, developers and editors of the team write it', async () => {
    for (const who of ['support', 'manager']) {
      const draft = await as(who).put(`${SUPPORT}/layout/draft`, { layout: layoutV2 });
      expect([who, draft.status, draft.body.error]).toEqual([who, 403, 'forbidden']);
      expect(draft.body.message).toMatch(/admin, developer or editor/);
      expect((await as(who).post(`${SUPPORT}/layout/publish`)).status).toBe(403);
      expect((await as(who).post(`${SUPPORT}/layout/versions/1/revert`)).status).toBe(403);
      expect((await as(who).get(`${SUPPORT}/layout/draft`)).status).toBe(403);
    }
    // A developer of another team neither reads nor writes Support's layout.
    const foreign = await as('developer').get(`${SUPPORT}/layout`);
    expect([foreign.status, foreign.body.message]).toEqual([
      403,
      'Only members of team "Support" and admins can do this.',
    ]);
    expect(
      (await as('developer').put(`${SUPPORT}/layout/draft`, { layout: layoutV2 })).status,
    ).toBe(403);
    // An admin of no team may.
    expect((await as('admin').get(`${SUPPORT}/layout`)).status).toBe(200);
    expect((await as('admin').get(`${ENV}/teams/Nope/layout`)).body.code).toBe('team_not_found');
  });

  it('versions every publication and reverts to an earlier one as a new version', async () => {
    await as('editor2').put(`${SUPPORT}/layout/draft`, { layout: layoutV2 });
    const draft = await as('editor2').get(`${SUPPORT}/layout/draft`);
    expect(draft.body.baseVersion).toBe(1);
    expect((await as('editor2').post(`${SUPPORT}/layout/publish`)).body.version).toBe(2);
    expect((await as('support').get(`${SUPPORT}/layout`)).body.published.layout).toEqual(layoutV2);

    const reverted = await as('editor').post(`${SUPPORT}/layout/versions/1/revert`);
    expect(reverted.status).toBe(201);
    expect(reverted.body).toMatchObject({
      version: 3,
      layout: layoutV1,
      origin: { kind: 'revert', version: 1 },
    });
    const versions = await as('editor').get(`${SUPPORT}/layout/versions`);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect((await as('support').get(`${SUPPORT}/layout`)).body.published.version).toBe(3);

    const missing = await as('editor').post(`${SUPPORT}/layout/versions/99/revert`);
    expect([missing.status, missing.body.code]).toEqual([404, 'layout_version_not_found']);
    const bad = await as('editor').post(`${SUPPORT}/layout/versions/zero/revert`);
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_parameter']);
  });

  it('copies a published layout from one team to another', async () => {
    // The developer is not in Support: it may not read the layout it would copy.
    const refused = await as('developer').post(`${SALES}/layout/copy`, { fromTeamName: 'Support' });
    expect(refused.status).toBe(403);
    const copied = await as('admin').post(`${SALES}/layout/copy`, { fromTeamName: 'Support' });
    expect(copied.status).toBe(201);
    expect(copied.body).toMatchObject({
      teamName: 'Sales',
      version: 1,
      layout: layoutV1,
      origin: { kind: 'copy', teamName: 'Support', version: 3 },
    });
    expect((await as('developer').get(`${SALES}/layout`)).body.published.layout).toEqual(layoutV1);
    // Support's own versions did not move.
    expect((await as('support').get(`${SUPPORT}/layout`)).body.published.version).toBe(3);
    const self = await as('admin').post(`${SALES}/layout/copy`, { fromTeamName: 'Sales' });
    expect([self.status, self.body.code]).toEqual([400, 'invalid_body']);
    const empty = await server.knex('teams').insert({ project_id: shop.project.id, name: 'Empty' });
    expect(empty).toBeDefined();
    const none = await as('admin').post(`${SALES}/layout/copy`, { fromTeamName: 'Empty' });
    expect([none.status, none.body.code]).toEqual([409, 'conflict']);
    // Tenancy: a team of another project is unknown here, and another project's admin cannot copy.
    await createTeam(server.knex, { projectId: other.project.id, name: 'Elsewhere' });
    const foreign = await as('admin').post(`${SALES}/layout/copy`, { fromTeamName: 'Elsewhere' });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'team_not_found']);
    const outsider = await as('outsider').post(`${SALES}/layout/copy`, { fromTeamName: 'Support' });
    expect([outsider.status, outsider.body.code]).toEqual([404, 'project_not_found']);
    // A member who reads layouts only (level `user`) may not copy, even within their own team.
    const reader = await as('support').post(`${SUPPORT}/layout/copy`, { fromTeamName: 'Sales' });
    expect(reader.status).toBe(403);
  });

  it('validates the layout strictly, with a 400 naming the wrong property', async () => {
    const orders = layoutV1.collections.orders;
    const withField = (field: unknown) => ({
      layout: { collections: { orders: { fields: { status: field } } } },
    });
    const cases: [unknown, RegExp][] = [
      [{}, /layout.*required/],
      [
        { layout: { colours: {} } },
        /^Body property "layout\.colours" is not accepted here; accepted: sidebar, collections\.$/,
      ],
      [
        withField({ display: { type: 'text', settings: { rows: 3 } } }),
        /"layout\.collections\.orders\.fields\.status\.display\.settings\.rows" is not accepted here: this object takes no properties\.$/,
      ],
      [
        withField({ display: { type: 'number', settings: { currency: 'EUR' } } }),
        /display\.settings\.currency" is not accepted here; accepted: format, decimals, prefix, suffix\.$/,
      ],
      [
        withField({ display: { type: 'sparkline' } }),
        /collections\.orders\.fields\.status\.display\.type/,
      ],
      [
        withField({ display: { type: 'badge', settings: { colours: { paid: 'green' } } } }),
        /display\.settings\.colours\.paid/,
      ],
      [withField({ display: { type: 'text', settings: { rows: 3 } } }), /display\.settings\.rows/],
      [withField({ edit: { type: 'rating', settings: { max: 11 } } }), /edit\.settings\.max/],
      [
        withField({ display: { type: 'duration', settings: {} } }),
        /display\.settings\.unit.*required/,
      ],
      [withField({ display: { type: 'currency', settings: {} } }), /display\.settings/],
      [
        withField({ display: { type: 'currency', settings: { currency: 'euro' } } }),
        /display\.settings\.currency/,
      ],
      [
        { layout: { collections: { orders: { table: { ...orders.table, pageSize: 7 } } } } },
        /pageSize/,
      ],
      [
        {
          layout: {
            collections: { orders: { table: { rowColours: [{ filter: {}, colour: '#fff' }] } } },
          },
        },
        /rowColours\.0/,
      ],
      [
        { layout: { sidebar: { items: [{ type: 'group', name: 'G' }] } } },
        /sidebar\.items\.0\.collections.*required/,
      ],
      [{ layout: { sidebar: { items: [{ type: 'folder' }] } } }, /sidebar\.items\.0\.type/],
      [
        { layout: { collections: { orders: { recordPage: { tabs: [{ title: 'T' }] } } } } },
        /recordPage\.tabs\.0\.sections.*required/,
      ],
      [
        {
          layout: {
            collections: {
              orders: { recordPage: { tabs: [{ related: 'lines', sections: [] }] } },
            },
          },
        },
        /recordPage\.tabs\.0\.sections" is not accepted here; accepted: related, title\.$/,
      ],
      [
        { layout: { collections: { orders: { recordPage: { tabs: [{ related: '' }] } } } } },
        /recordPage\.tabs\.0\.related/,
      ],
      [
        {
          layout: {
            collections: { orders: { forms: { edit: { sections: [{ fields: ['a', 'a'] }] } } } },
          },
        },
        /forms\.edit\.sections\.0\.fields/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await as('editor').put(`${SUPPORT}/layout/draft`, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([
        JSON.stringify(body),
        400,
        'invalid_body',
      ]);
      expect(res.body.message).toMatch(message);
    }
    expect((await as('editor').get(`${SUPPORT}/layout/draft`)).body.layout).toBeNull();
  });

  it('answers another project’s member exactly as an unknown project, and checks the environment', async () => {
    const foreign = await as('outsider').get(`${SUPPORT}/layout`);
    const unknown = await as('outsider').get(
      '/v1/project/Gamma/environment/Production/teams/Support/layout',
    );
    expect([foreign.status, foreign.body.code]).toEqual([404, 'project_not_found']);
    expect(foreign.body.message).toBe(unknown.body.message.replace('Gamma', 'Shop'));
    expect((await as('outsider').put(`${SUPPORT}/layout/draft`, { layout: {} })).status).toBe(404);
    expect(
      (await as('outsider').post(`${ENV}/views`, { name: 'x', collection: 'orders' })).status,
    ).toBe(404);
    // Another environment's name, of the other project, is unknown in this one.
    const otherEnv = await as('editor').get(
      '/v1/project/Shop/environment/Nope/teams/Support/layout',
    );
    expect([otherEnv.status, otherEnv.body.code]).toEqual([404, 'environment_not_found']);
    // Application tokens are refused.
    const token = await request(server.app)
      .get('/v1/project/Other/environment/Production/teams/Support/layout')
      .set('authorization', `Bearer ${other.tokens.all}`);
    expect(token.status).toBe(401);
  });

  it('keeps layouts apart per environment', async () => {
    const staging = '/v1/project/Shop/environment/Staging/teams/Support/layout';
    expect((await as('support').get(staging)).body.published).toBeNull();
  });
});

describe('saved views', () => {
  const view = {
    name: 'Late orders',
    collection: 'orders',
    filter: {
      aggregator: 'and',
      conditions: [{ field: 'status', operator: 'equal', value: 'late' }],
    },
    search: 'acme',
    sort: { field: 'createdAt', ascending: false },
    columns: ['id', 'status'],
    segment: 'Open',
  };
  let personal: number;
  let shared: number;

  it('lists the caller’s own views and those shared with their teams', async () => {
    const mine = await as('editor').post(`${ENV}/views`, view);
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ ...view, teamName: null, defaultForTeams: [] });
    personal = mine.body.id;
    const team = await as('editor').post(`${ENV}/views`, {
      ...view,
      name: 'Team late',
      teamName: 'Support',
    });
    shared = team.body.id;
    await as('developer').post(`${ENV}/views`, {
      name: 'Sales only',
      collection: 'orders',
      teamName: 'Sales',
    });
    const names = async (who: string) =>
      (await as(who).get(`${ENV}/views?collection=orders`)).body.data.map(
        (v: { name: string }) => v.name,
      );
    expect(await names('editor')).toEqual(['Late orders', 'Team late']);
    expect(await names('support')).toEqual(['Team late']);
    expect(await names('developer')).toEqual(['Sales only']);
    expect((await as('editor').get(`${ENV}/views?collection=customers`)).body.data).toEqual([]);
    const noCollection = await as('editor').get(`${ENV}/views`);
    expect([noCollection.status, noCollection.body.code]).toEqual([400, 'invalid_parameter']);
    // Sharing with a team one is not in is refused.
    expect((await as('support').post(`${ENV}/views`, { ...view, teamName: 'Sales' })).status).toBe(
      403,
    );
    const bad = await as('editor').post(`${ENV}/views`, { ...view, sort: { field: 'x' } });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringMatching(/sort/)]);
  });

  it('lets only the owner or an admin change or delete a view', async () => {
    const teammate = await as('support').patch(`${ENV}/views/${shared}`, { name: 'Mine now' });
    expect(teammate.status).toBe(403);
    expect((await as('support').delete(`${ENV}/views/${shared}`)).status).toBe(403);
    // Someone else's personal view does not exist for them.
    const hidden = await as('support').patch(`${ENV}/views/${personal}`, { name: 'x' });
    expect([hidden.status, hidden.body.code]).toEqual([404, 'view_not_found']);
    const renamed = await as('editor').patch(`${ENV}/views/${personal}`, {
      name: 'Late',
      search: null,
    });
    expect(renamed.body).toMatchObject({ name: 'Late', search: null, columns: ['id', 'status'] });
    expect(
      (await as('admin').patch(`${ENV}/views/${shared}`, { columns: ['id'] })).body.columns,
    ).toEqual(['id']);
  });

  it('makes a shared view the team’s default for its collection (layout editors)', async () => {
    const path = `${SUPPORT}/default-views/orders`;
    expect((await as('support').put(path, { viewId: shared })).status).toBe(403);
    const personalDefault = await as('editor').put(path, { viewId: personal });
    expect([personalDefault.status, personalDefault.body.message]).toEqual([
      400,
      expect.stringMatching(/viewId.*shared with team "Support"/),
    ]);
    // A Sales view is no view at all for a Support editor.
    const salesView = (await as('developer').get(`${ENV}/views?collection=orders`)).body.data[0];
    const unseen = await as('editor').put(path, { viewId: salesView.id });
    expect([unseen.status, unseen.body.code]).toEqual([404, 'view_not_found']);
    const made = await as('editor').put(path, { viewId: shared });
    expect([made.status, made.body.defaultForTeams]).toEqual([200, ['Support']]);
    const listed = (await as('support').get(`${ENV}/views?collection=orders`)).body.data;
    expect(listed[0].defaultForTeams).toEqual(['Support']);
    // Making the view personal drops it as the team's default.
    await as('editor').patch(`${ENV}/views/${shared}`, { teamName: null });
    expect(
      (await as('editor').get(`${ENV}/views?collection=orders`)).body.data[1].defaultForTeams,
    ).toEqual([]);
    await as('editor').patch(`${ENV}/views/${shared}`, { teamName: 'Support' });
    await as('editor').put(path, { viewId: shared });
    expect((await as('editor').delete(path)).status).toBe(204);
  });

  it('lets an admin delete a team’s view, with an admin log', async () => {
    expect((await as('admin').delete(`${ENV}/views/${shared}`)).status).toBe(204);
    const log = await server.knex('admin_logs').orderBy('id', 'desc').first();
    expect([log.resource, log.type, log.previous_value.setting]).toEqual([
      'console',
      'remove',
      'view',
    ]);
    expect((await as('editor').delete(`${ENV}/views/${personal}`)).status).toBe(204);
    expect((await as('editor').get(`${ENV}/views?collection=orders`)).body.data).toEqual([]);
  });
});

describe('team segments', () => {
  const segment = {
    name: 'Late',
    collection: 'orders',
    filter: { field: 'status', operator: 'equal', value: 'late' },
  };

  it('are written by layout editors, listed for the team, and served to agents', async () => {
    const refused = await as('support').post(`${SUPPORT}/segments`, segment);
    expect([refused.status, refused.body.error]).toEqual([403, 'forbidden']);
    const created = await as('editor').post(`${SUPPORT}/segments`, segment);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...segment, teamName: 'Support' });
    const duplicate = await as('editor2').post(`${SUPPORT}/segments`, segment);
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'conflict']);
    expect(
      (await as('support').get(`${SUPPORT}/segments?collection=orders`)).body.data,
    ).toHaveLength(1);
    expect((await as('developer').get(`${SUPPORT}/segments`)).status).toBe(403);

    const team = await server
      .knex('teams')
      .where({ project_id: shop.project.id, name: 'Support' })
      .first('id');
    const event = await server.knex('platform_events').orderBy('id', 'desc').first('event', 'data');
    expect([event.event, JSON.parse(event.data)]).toEqual([
      'refresh-renderings',
      { renderingIds: [team.id] },
    ]);
    const secret = await issueEnvironmentSecret(server.knex, shop.production.id);
    const rendering = await request(server.app)
      .get(`/liana/v4/permissions/renderings/${team.id}`)
      .set('forest-secret-key', secret);
    expect(rendering.status).toBe(200);
    expect(rendering.body.collections.orders).toEqual({
      scope: null,
      segments: [],
      liveQuerySegments: [],
      filterSegments: [{ id: 'orders.Late', name: 'Late', filter: segment.filter }],
    });

    const renamed = await as('editor').patch(`${SUPPORT}/segments/${created.body.id}`, {
      name: 'Very late',
    });
    expect(renamed.body.name).toBe('Very late');
    const bad = await as('editor').patch(`${SUPPORT}/segments/${created.body.id}`, {
      filter: { field: 'status' },
    });
    expect([bad.status, bad.body.code, bad.body.message]).toEqual([
      400,
      'invalid_body',
      expect.stringMatching(/filter/),
    ]);
    expect((await as('support').delete(`${SUPPORT}/segments/${created.body.id}`)).status).toBe(403);
    expect((await as('editor').delete(`${SUPPORT}/segments/${created.body.id}`)).status).toBe(204);
    const gone = await as('editor').delete(`${SUPPORT}/segments/${created.body.id}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'segment_not_found']);
  });
});

it('describes every new route and schema in the OpenAPI document', () => {
  const document = buildOpenApiDocument() as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown> };
  };
  const env = '/v1/project/{projectName}/environment/{environmentName}';
  const routes = Object.entries(document.paths)
    .filter(
      ([path]) => path.startsWith(`${env}/teams/{teamName}`) || path.startsWith(`${env}/views`),
    )
    .flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path.slice(env.length)}`),
    );
  expect(routes.sort()).toEqual(
    [
      'GET /teams/{teamName}/layout',
      'GET /teams/{teamName}/layout/draft',
      'PUT /teams/{teamName}/layout/draft',
      'DELETE /teams/{teamName}/layout/draft',
      'POST /teams/{teamName}/layout/publish',
      'GET /teams/{teamName}/layout/versions',
      'POST /teams/{teamName}/layout/versions/{version}/revert',
      'POST /teams/{teamName}/layout/copy',
      'GET /views',
      'POST /views',
      'PATCH /views/{viewId}',
      'DELETE /views/{viewId}',
      'PUT /teams/{teamName}/default-views/{collectionName}',
      'DELETE /teams/{teamName}/default-views/{collectionName}',
      'GET /teams/{teamName}/segments',
      'POST /teams/{teamName}/segments',
      'PATCH /teams/{teamName}/segments/{segmentId}',
      'DELETE /teams/{teamName}/segments/{segmentId}',
    ].sort(),
  );
  expect(Object.keys(document.components.schemas)).toEqual(
    expect.arrayContaining([
      'ConsoleLayout',
      'LayoutWidget',
      'PublishedLayout',
      'LayoutDraft',
      'SavedView',
      'TeamSegment',
      'ConsoleSettingValue',
    ]),
  );
});
