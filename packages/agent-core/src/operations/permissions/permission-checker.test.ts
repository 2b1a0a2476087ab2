import type {
  EnvironmentPermissionsJson,
  PermissionSource,
  PlatformUser,
  RenderingPermissionsJson,
} from '../../platform/permission-source';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { SessionClaims } from '../session-claims';
import { PermissionChecker } from './permission-checker';

const claims = { id: 1, renderingId: 7 } as SessionClaims;
const user = { id: 1, roleId: 3, tags: {} } as unknown as PlatformUser;
const orders = {
  name: 'orders',
  schema: {
    fields: {
      status: { type: 'Column', columnType: 'String', filterOperators: new Set(['Equal']) },
    },
  },
} as unknown as Collection;

const environment = (roles: number[]): EnvironmentPermissionsJson => ({
  collections: {
    orders: {
      collection: {
        browseEnabled: { roles },
        readEnabled: { roles },
        editEnabled: false,
        addEnabled: false,
        deleteEnabled: false,
        exportEnabled: false,
      },
      actions: {},
    },
  },
});

const rendering = (value: string): RenderingPermissionsJson => ({
  team: {},
  collections: {
    orders: {
      scope: { field: 'status', operator: 'Equal', value },
      segments: [],
    },
  },
  stats: [],
});

/** A source that hands out one promise per document until the document is replaced. */
function source(env: EnvironmentPermissionsJson, render: RenderingPermissionsJson) {
  const state = {
    environment: Promise.resolve(env),
    users: Promise.resolve([user]),
    rendering: Promise.resolve(render),
  };
  const permissions: PermissionSource = {
    getEnvironmentPermissions: () => state.environment,
    getUsers: () => state.users,
    getRenderingPermissions: () => state.rendering,
    invalidateEnvironmentPermissions: () => undefined,
    invalidateUsers: () => undefined,
    invalidateRenderingPermissions: () => undefined,
  };
  return { state, permissions };
}

describe('PermissionChecker with documents already settled', () => {
  it('answers from the documents once known, and sees replaced documents', async () => {
    const { state, permissions } = source(environment([3]), rendering('paid'));
    const checker = new PermissionChecker(permissions);
    // First request: the documents were never seen settled, so the answers wait.
    await expect(checker.assertCollectionRight(claims, 'orders', 'read')).resolves.toBeUndefined();
    const first = checker.getScope(claims, orders);
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.toPlainObject()).toEqual({
      field: 'status',
      operator: 'Equal',
      value: 'paid',
    });
    // Next requests: the same settled scope promise, parsed once.
    await expect(checker.assertCollectionRight(claims, 'orders', 'read')).resolves.toBeUndefined();
    expect(checker.getScope(claims, orders)).toBe(first);
    // A replaced document (a new promise) is read again: the role lost the right, the scope moved.
    state.environment = Promise.resolve(environment([4]));
    state.rendering = Promise.resolve(rendering('refunded'));
    await expect(
      Promise.resolve().then(() => checker.assertCollectionRight(claims, 'orders', 'read')),
    ).rejects.toMatchObject({ name: 'ForbiddenError', code: 'FORBIDDEN' });
    await expect(checker.assertCollectionRight(claims, 'orders', 'read')).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const second = await checker.getScope(claims, orders);
    expect(second?.toPlainObject()).toMatchObject({ value: 'refunded' });
  });
});
