import { useTestDatabase } from '@canopy/test-databases';
import request from 'supertest';
import { signSessionToken, type AdminApiServer } from '../src';
import { storeSchema } from '../src/store/environment-schema';
import { seed, startTestServer, TEST_KEYS, type Seed } from './helpers/test-server';

const db = useTestDatabase('postgres');
let server: AdminApiServer;
let shop: Seed;
let session: string;

/** Field objects as an agent uploads them (platform protocol 13.4), only the keys a scope reads. */
const column = (field: string, type: unknown, extra: object = {}) => ({
  field,
  type,
  isFilterable: true,
  relationship: undefined,
  ...extra,
});

const schema = (hash: string, customers: object[]) => ({
  data: [
    {
      type: 'collections',
      id: 'customers',
      attributes: { name: 'customers', fields: customers },
    },
    {
      type: 'collections',
      id: 'orders',
      attributes: {
        name: 'orders',
        fields: [
          column('id', 'Number'),
          column('customer', 'Number', {
            relationship: 'BelongsTo',
            reference: 'customers.id',
          }),
          column('lines', ['Number'], {
            relationship: 'HasMany',
            reference: 'lines.id',
            isFilterable: false,
          }),
        ],
      },
    },
  ],
  meta: { schemaFileHash: hash },
});

const CUSTOMERS = [
  column('id', 'Number'),
  column('region', 'Enum', { enums: ['EU', 'US'] }),
  column('vip', 'Boolean'),
  column('name', 'String'),
  // A flattened JSON key the agent cannot filter.
  column('address@@@zip', 'String', { isFilterable: false }),
  // A field whose own operators the agent listed.
  column('code', 'String', { filterOperators: ['Equal', 'In'] }),
];

async function upload(environmentId: number, document: ReturnType<typeof schema>) {
  await storeSchema(
    server.knex,
    { id: environmentId, projectId: shop.project.id },
    {
      hash: document.meta.schemaFileHash,
      document,
      collections: document.data.map(({ id }) => ({ name: id, actionNames: [] })),
    },
  );
}

const patchScopes = (scopes: object) =>
  request(server.app)
    .patch(`/v1/project/${shop.project.name}/teams/Support`)
    .set('authorization', `Bearer ${session}`)
    .send({ scopes });

beforeAll(async () => {
  server = await startTestServer(db());
  shop = await seed(server);
  session = signSessionToken(TEST_KEYS, {
    userId: shop.admin.id,
    sso: false,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  await upload(shop.production.id, schema('p1', CUSTOMERS));
});

afterAll(async () => {
  await server.close();
});

describe('team scopes are checked against the uploaded schema when saved', () => {
  it.each([
    [
      'an unknown field',
      { customers: { field: 'country', operator: 'equal', value: 'FR' } },
      'field "customers.country" does not exist (its fields: "address@@@zip", "code", "id", "name", "region", "vip")',
    ],
    [
      'a field that is not filterable',
      { customers: { field: 'address@@@zip', operator: 'in', value: ['75001'] } },
      'field "customers.address@@@zip" is not filterable, so no scope can use it',
    ],
    [
      'an operator the type does not allow',
      { customers: { field: 'vip', operator: 'contains', value: 'yes' } },
      'operator "contains" is not allowed on field "customers.vip" (allowed: equal, not_equal, present, blank, missing, in, not_in)',
    ],
    [
      'an operator the agent did not list for the field',
      { customers: { field: 'code', operator: 'StartsWith', value: 'A' } },
      'operator "starts_with" is not allowed on field "customers.code" (allowed: equal, in)',
    ],
    [
      'a value of the wrong type, deep in a group',
      {
        customers: {
          aggregator: 'or',
          conditions: [
            { field: 'name', operator: 'equal', value: 'Ada' },
            { field: 'region', operator: 'in', value: ['EU', 'Mars'] },
          ],
        },
      },
      '"in" on field "customers.region" expects one of "EU", "US", got "Mars"',
    ],
    [
      'a list operator without a list',
      { customers: { field: 'id', operator: 'in', value: 3 } },
      '"in" on field "customers.id" expects a list of values, got 3',
    ],
    [
      'a field of a to-one relation',
      { orders: { field: 'customer:country', operator: 'equal', value: 'FR' } },
      'field "customers.country" does not exist (its fields: "address@@@zip", "code", "id", "name", "region", "vip")',
    ],
    [
      'a to-many relation',
      { orders: { field: 'lines:id', operator: 'equal', value: 1 } },
      '"orders.lines" is not a to-one relation, so "lines:id" names no field',
    ],
  ])('refuses %s with a 400 naming the field and the reason', async (_case, scopes, reason) => {
    const before = await server.knex('admin_logs').count({ count: '*' }).first();
    const answer = await patchScopes(scopes).expect(400);
    const collection = Object.keys(scopes)[0];
    expect(answer.body).toEqual({
      code: 'invalid_scope',
      message: `The scope on "${collection}" cannot be applied in environment "Production": ${reason}.`,
    });
    // Nothing saved, nothing logged.
    const team = await server.knex('teams').where({ project_id: shop.project.id, name: 'Support' });
    expect(team[0].scopes).toEqual({});
    expect(await server.knex('admin_logs').count({ count: '*' }).first()).toEqual(before);
  });

  it('saves a scope the schema allows: own fields, relation fields, context variables', async () => {
    const scopes = {
      customers: {
        aggregator: 'and',
        conditions: [
          { field: 'region', operator: 'equal', value: '{{currentUser.tags.region}}' },
          { field: 'code', operator: 'In', value: ['A', 'B'] },
          { field: 'vip', operator: 'present' },
        ],
      },
      orders: { field: 'customer:region', operator: 'in', value: ['EU'] },
    };
    const answer = await patchScopes(scopes).expect(200);
    expect(answer.body.scopes).toEqual(scopes);
  });

  it('checks every environment whose schema declares the collection', async () => {
    // Staging's agent has not uploaded a schema: it constrains nothing. Once it has, a scope must
    // fit it too, since a team's scope holds in every environment.
    await patchScopes({ customers: { field: 'name', operator: 'contains', value: 'a' } }).expect(
      200,
    );
    await upload(shop.staging.id, schema('s1', [column('id', 'Number'), column('name', 'Number')]));
    const answer = await patchScopes({
      customers: { field: 'name', operator: 'contains', value: 'a' },
    }).expect(400);
    expect(answer.body.message).toBe(
      'The scope on "customers" cannot be applied in environment "Staging": operator "contains" is not allowed on field "customers.name" (allowed: equal, not_equal, present, blank, missing, in, not_in, less_than, greater_than, less_than_or_equal, greater_than_or_equal).',
    );
  });

  it('checks the scopes of a new team too, and still refuses collections no agent declared', async () => {
    const post = (body: object) =>
      request(server.app)
        .post(`/v1/project/${shop.project.name}/teams`)
        .set('authorization', `Bearer ${session}`)
        .send(body);
    const refused = await post({
      name: 'Europe',
      scopes: { customers: { field: 'address@@@zip', operator: 'equal', value: '1' } },
    }).expect(400);
    expect(refused.body.code).toBe('invalid_scope');
    const unknown = await post({
      name: 'Europe',
      scopes: { invoices: { field: 'id', operator: 'equal', value: 1 } },
    }).expect(400);
    expect(unknown.body.code).toBe('collection_not_found');
  });
});
