import type { ActivityLogInput, AgentServices } from '../../platform/agent-services';
import type {
  EnvironmentPermissionsJson,
  PermissionSource,
  PlatformUser,
  RenderingPermissionsJson,
} from '../../platform/permission-source';
import { InMemoryDataSource } from '../../toolkit/in-memory/in-memory-data-source';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import type { SessionClaims } from '../../operations/session-claims';
import { signSessionToken } from '../../protocol/auth/session-token';

/** Auth secret of the test agent. */
export const TEST_AUTH_SECRET = 'test-auth-secret-'.padEnd(64, 'x');

/** Claims of the test user (role 1, rendering 1, plain `user` level). */
export const TEST_CLAIMS: Omit<SessionClaims, 'iat' | 'exp'> = {
  id: 1,
  email: 'ada@shop.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  team: 'Operations',
  role: 'Operator',
  permissionLevel: 'user',
  renderingId: 1,
  tags: { region: 'EU' },
};

/** A bearer header for the test user (or other claims). */
export function bearer(claims: Partial<SessionClaims> = {}): string {
  return `Bearer ${signSessionToken({ ...TEST_CLAIMS, ...claims }, TEST_AUTH_SECRET)}`;
}

const number = { type: 'Column', columnType: 'Number' } as const;
const string = { type: 'Column', columnType: 'String' } as const;

/** A fresh in-memory shop: customers, orders, payments, products linked through orderProducts. */
export function createShopDataSource(): InMemoryDataSource {
  return new InMemoryDataSource({
    customers: {
      fields: {
        id: { ...number, isPrimaryKey: true, isReadOnly: true },
        fullName: string,
        email: string,
        region: string,
        orders: {
          type: 'OneToMany',
          foreignCollection: 'orders',
          originKey: 'customerId',
          originKeyTarget: 'id',
        },
      },
      records: [
        { id: 1, fullName: 'Ada Martin', email: 'ada@shop.test', region: 'EU' },
        { id: 2, fullName: 'Bob Stone', email: 'bob@shop.test', region: 'US' },
      ],
    },
    orders: {
      fields: {
        id: { ...number, isPrimaryKey: true, isReadOnly: true },
        reference: string,
        status: { type: 'Column', columnType: 'Enum', enumValues: ['pending', 'paid', 'shipped'] },
        total: number,
        paidAt: { type: 'Column', columnType: 'Date' },
        tags: { type: 'Column', columnType: ['String'] },
        notes: { type: 'Column', columnType: 'Json' },
        region: string,
        customerId: number,
        customer: {
          type: 'ManyToOne',
          foreignCollection: 'customers',
          foreignKey: 'customerId',
          foreignKeyTarget: 'id',
        },
        payments: {
          type: 'OneToMany',
          foreignCollection: 'payments',
          originKey: 'orderId',
          originKeyTarget: 'id',
        },
        products: {
          type: 'ManyToMany',
          foreignCollection: 'products',
          throughCollection: 'orderProducts',
          originKey: 'orderId',
          originKeyTarget: 'id',
          foreignKey: 'productId',
          foreignKeyTarget: 'id',
        },
      },
      records: [
        {
          id: 101,
          reference: 'SO-0101',
          status: 'paid',
          total: 120,
          paidAt: '2025-11-02T09:15:00.000Z',
          tags: ['priority', 'gift'],
          notes: { gift: true },
          region: 'EU',
          customerId: 1,
        },
        {
          id: 102,
          reference: 'SO-0102',
          status: 'pending',
          total: 48.5,
          paidAt: null,
          tags: [],
          notes: null,
          region: 'US',
          customerId: null,
        },
        {
          id: 103,
          reference: 'SO-0103',
          status: 'pending',
          total: 15,
          paidAt: null,
          tags: [],
          notes: null,
          region: 'EU',
          customerId: 2,
        },
      ],
    },
    payments: {
      fields: {
        id: { ...number, isPrimaryKey: true, isReadOnly: true },
        amount: number,
        orderId: number,
        order: {
          type: 'ManyToOne',
          foreignCollection: 'orders',
          foreignKey: 'orderId',
          foreignKeyTarget: 'id',
        },
      },
      records: [
        { id: 1, amount: 100, orderId: 101 },
        { id: 2, amount: 20, orderId: 101 },
        { id: 3, amount: 48.5, orderId: 102 },
      ],
    },
    products: {
      fields: {
        id: { type: 'Column', columnType: 'Uuid', isPrimaryKey: true },
        label: string,
      },
      records: [
        { id: '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f', label: 'Teapot' },
        { id: '0c0ffee0-1d6e-4a8e-9a51-3f4b2c1d0e9f', label: 'Cup' },
      ],
    },
    orderProducts: {
      fields: {
        orderId: { ...number, isPrimaryKey: true },
        productId: { type: 'Column', columnType: 'Uuid', isPrimaryKey: true },
      },
      records: [{ orderId: 101, productId: '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f' }],
    },
  });
}

/** A permission source serving fixed documents, which tests may replace between requests. */
export class FixedPermissionSource implements PermissionSource {
  environment: EnvironmentPermissionsJson = true;
  users: PlatformUser[] = [
    {
      id: 1,
      firstName: 'Ada',
      lastName: 'Lovelace',
      fullName: 'Ada Lovelace',
      email: 'ada@shop.test',
      permissionLevel: 'user',
      roleId: 1,
      tags: { region: 'EU' },
    },
  ];
  rendering: RenderingPermissionsJson = {
    team: { id: 5, name: 'Operations' },
    collections: {},
    stats: [],
  };
  invalidations = 0;

  async getEnvironmentPermissions() {
    return this.environment;
  }
  async getUsers() {
    return this.users;
  }
  async getRenderingPermissions() {
    return this.rendering;
  }
  invalidateEnvironmentPermissions() {
    this.invalidations += 1;
  }
  invalidateUsers() {
    this.invalidations += 1;
  }
  invalidateRenderingPermissions() {
    this.invalidations += 1;
    this.rendering = { ...this.rendering };
  }
}

/** Services of a test agent over `dataSource`, with a recorder of activity logs. */
export function createTestServices(
  dataSource: DataSource = createShopDataSource(),
  overrides: Partial<AgentServices> = {},
): AgentServices & {
  permissions: FixedPermissionSource;
  logs: ActivityLogInput[];
  errors: unknown[];
} {
  const logs: ActivityLogInput[] = [];
  const errors: unknown[] = [];
  const permissions = new FixedPermissionSource();
  return {
    dataSource,
    options: {
      authSecret: TEST_AUTH_SECRET,
      prefix: '/forest',
      isProduction: false,
      useUnsafeActionEndpoint: false,
    },
    logger: (level, _message, error) => {
      if (level === 'Error') errors.push(error);
    },
    permissions,
    activityLogs: { record: (entry) => logs.push(entry) },
    ipWhitelist: null,
    authentication: {
      getAuthorizationUrl: async () => 'https://platform.test/oidc/auth',
      handleCallback: async () => {
        throw new Error('no login in these tests');
      },
    },
    logs,
    errors,
    ...overrides,
  } as AgentServices & {
    permissions: FixedPermissionSource;
    logs: ActivityLogInput[];
    errors: unknown[];
  };
}
