import { describe, expect, it } from 'vitest';
import {
  actionCondition,
  actionRight,
  collectionRight,
  endpointOrigin,
  endpointProblem,
  expiryAfter,
  inviteBody,
  inviteProblems,
  nameProblem,
  originToConfirm,
  tokenProblems,
  withActionRight,
  withCollectionRight,
  withScope,
} from './form-logic';
import { PlatformClient, PlatformError } from '../../../protocol';
import { ManagementApi } from './management-api';

describe('role rights', () => {
  it('grants an unmentioned right, except requires-approval', () => {
    expect(collectionRight({}, 'orders', 'deleteEnabled')).toBe(true);
    expect(actionRight({}, 'orders', 'Refund', 'triggerEnabled')).toBe(true);
    expect(actionRight({}, 'orders', 'Refund', 'approvalRequired')).toBe(false);
  });

  it('stores a denied right and drops it again once granted', () => {
    const denied = withCollectionRight({}, 'orders', 'deleteEnabled', false);
    expect(denied).toEqual({ collections: { orders: { deleteEnabled: false } } });
    expect(collectionRight(denied, 'orders', 'deleteEnabled')).toBe(false);
    const both = withCollectionRight(denied, 'orders', 'exportEnabled', false);
    expect(both.collections?.orders).toEqual({ deleteEnabled: false, exportEnabled: false });
    const back = withCollectionRight(
      withCollectionRight(both, 'orders', 'exportEnabled', true),
      'orders',
      'deleteEnabled',
      true,
    );
    expect(back).toEqual({});
  });

  it('keeps other collections and actions when one right changes', () => {
    const start = {
      collections: { customers: { readEnabled: false } },
      actions: { orders: { Refund: { approvalRequired: true } } },
    };
    const next = withCollectionRight(start, 'orders', 'editEnabled', false);
    expect(next).toEqual({
      collections: { customers: { readEnabled: false }, orders: { editEnabled: false } },
      actions: { orders: { Refund: { approvalRequired: true } } },
    });
    expect(start.collections).toEqual({ customers: { readEnabled: false } });
  });

  it('sets approval and its condition, compacting the tree, and clears both', () => {
    let rights = withActionRight({}, 'orders', 'Refund', {
      right: 'approvalRequired',
      value: true,
    });
    rights = withActionRight(rights, 'orders', 'Refund', {
      condition: 'approvalRequiredConditions',
      tree: {
        aggregator: 'and',
        conditions: [
          { field: 'amount', operator: 'greater_than', value: 100 },
          { field: '', operator: '' },
        ],
      },
    });
    expect(rights).toEqual({
      actions: {
        orders: {
          Refund: {
            approvalRequired: true,
            approvalRequiredConditions: { field: 'amount', operator: 'greater_than', value: 100 },
          },
        },
      },
    });
    expect(actionCondition(rights, 'orders', 'Refund', 'approvalRequiredConditions')).toEqual({
      field: 'amount',
      operator: 'greater_than',
      value: 100,
    });
    rights = withActionRight(rights, 'orders', 'Refund', {
      condition: 'approvalRequiredConditions',
      tree: { aggregator: 'and', conditions: [{ field: 'amount', operator: 'equal' }] },
    });
    rights = withActionRight(rights, 'orders', 'Refund', {
      right: 'approvalRequired',
      value: false,
    });
    expect(rights).toEqual({});
  });
});

describe('team scopes', () => {
  it('sets a compacted tree per collection and removes an empty one', () => {
    const scopes = withScope({}, 'orders', {
      aggregator: 'or',
      conditions: [{ field: 'region', operator: 'equal', value: 'EU' }],
    });
    expect(scopes).toEqual({ orders: { field: 'region', operator: 'equal', value: 'EU' } });
    expect(withScope(scopes, 'orders', { aggregator: 'and', conditions: [] })).toEqual({});
  });
});

describe('application token form', () => {
  it('computes the expiry from a number of days', () => {
    expect(expiryAfter(30, new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-31T00:00:00.000Z');
  });

  it('names what is missing', () => {
    expect(tokenProblems({ name: ' ', scopes: [], days: 0 })).toEqual({
      name: expect.stringContaining('name'),
      scopes: 'Choose at least one scope.',
      days: 'Between 1 and 3650 days.',
    });
    expect(tokenProblems({ name: 'CI', scopes: ['notes:read'], days: 30 })).toEqual({});
  });
});

describe('invitation form', () => {
  const draft = {
    email: ' Ada@Example.com ',
    firstName: 'Ada',
    lastName: '',
    permissionLevel: 'user' as const,
    roleName: 'Support',
    teamNames: [],
  };

  it('refuses a malformed email and a member already in the project', () => {
    expect(inviteProblems({ ...draft, email: 'ada@' }, []).email).toMatch(/email address/);
    expect(inviteProblems(draft, ['ada@example.com']).email).toMatch(/already a member/);
    expect(inviteProblems(draft, ['grace@example.com'])).toEqual({});
  });

  it('sends trimmed values and leaves the team to the server when none is chosen', () => {
    expect(inviteBody(draft)).toEqual({
      email: 'Ada@Example.com',
      firstName: 'Ada',
      permissionLevel: 'user',
      roleName: 'Support',
    });
    expect(inviteBody({ ...draft, teamNames: ['Europe'] }).teamNames).toEqual(['Europe']);
  });
});

describe('environment form', () => {
  it('checks names and API endpoints', () => {
    expect(nameProblem('  ', [])).toBe('A name is required.');
    expect(nameProblem('Staging', ['Staging'])).toMatch(/exists/);
    expect(nameProblem('Staging', ['Production'])).toBeUndefined();
    expect(endpointProblem('')).toBeUndefined();
    expect(endpointProblem('ftp://x')).toMatch(/http/);
    expect(endpointProblem('agent')).toMatch(/agent URL/);
    expect(endpointProblem('https://agent.example.com')).toBeUndefined();
  });

  it("asks to confirm an endpoint's origin only when it is new to the environment", () => {
    expect(endpointOrigin(' https://agent.example.com:8443/forest ')).toBe(
      'https://agent.example.com:8443',
    );
    expect(endpointOrigin('ftp://x')).toBeUndefined();
    expect(originToConfirm(null, 'http://127.0.0.1:3351/agent')).toBe('http://127.0.0.1:3351');
    expect(originToConfirm('https://a.example.com', 'https://a.example.com/v2')).toBeUndefined();
    expect(originToConfirm('https://a.example.com', 'https://a.example.com.evil.test')).toBe(
      'https://a.example.com.evil.test',
    );
    expect(originToConfirm('https://a.example.com', 'http://a.example.com')).toBe(
      'http://a.example.com',
    );
    expect(originToConfirm('https://a.example.com', '')).toBeUndefined();
    expect(originToConfirm(undefined, 'not a url')).toBeUndefined();
  });
});

describe('ManagementApi', () => {
  it('sends the bearer token and the body, and reads the API error shape', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const client = new ManagementApi(
      new PlatformClient({
        baseUrl: 'http://platform.test/',
        token: { get: () => 'tok', drop: () => undefined },
        fetch: async (url, init) => {
          calls.push({ url: String(url), init: init! });
          return new Response(
            JSON.stringify({
              code: 'forbidden',
              message: 'Only an admin of project "A b" can manage it.',
            }),
            { status: 403 },
          );
        },
      }),
    );
    const error = await client.updateRole('A b', 'Sup/port', { rights: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    expect(error.message).toBe('Only an admin of project "A b" can manage it.');
    expect(calls[0]!.url).toBe('http://platform.test/v1/project/A%20b/roles/Sup%2Fport');
    expect(calls[0]!.init.method).toBe('PATCH');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(calls[0]!.init.body).toBe('{"rights":{}}');
  });

  it('returns undefined for a 204 and the list of tokens from its envelope', async () => {
    const client = new ManagementApi(
      new PlatformClient({
        token: { get: () => 'tok', drop: () => undefined },
        fetch: async (url) =>
          String(url).endsWith('/application-tokens')
            ? new Response(JSON.stringify({ data: [{ id: 1, name: 'CI' }] }))
            : new Response(null, { status: 204 }),
      }),
    );
    expect(await client.revokeToken('Shop', 1)).toBeUndefined();
    expect(await client.listTokens('Shop')).toEqual([{ id: 1, name: 'CI' }]);
  });
});
