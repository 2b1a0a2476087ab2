// The HTTP layer alone: the agent's pipeline over a stub data source answering at once (15 fixed
// orders with their customer; one for a read by id), with platform-shaped permissions (role
// rights, a user list), served as mountOnStandaloneServer serves it (the standalone server over
// the pipeline's slot), next to a plain node:http server answering the same rows. Started as a child process by bench.ts;
// sends both ports and a session token. Isolates the CPU the REST layer costs per request from
// the customizer, the SQL data source and the database.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { RouterSlot } from '../../src/agent/router-slot';
import { StandaloneServer } from '../../src/agent/standalone-server';
import { createAgentPipeline, signSessionToken } from '../../src/http';
import type { AgentServices } from '../../src/platform/agent-services';
import type { PaginatedFilter } from '../../src/toolkit/query/paginated-filter';
import { BaseCollection } from '../../src/toolkit/base/base-collection';
import { BaseDataSource } from '../../src/toolkit/base/base-data-source';
import type { ColumnSchema, FieldSchema } from '../../src/toolkit/schema/field-schema';
import { serveAllocationProfile } from './alloc-profile';

const AUTH_SECRET = 'hot-path-auth-secret';
const placedAt = new Date('2025-11-02T09:15:00.000Z');
const ROWS = Array.from({ length: 15 }, (_, index) => ({
  id: 1000 - index,
  status: 'paid',
  amount: 12.5 + index,
  placed_at: placedAt,
  customer: { id: 7 + index, name: `Customer ${7 + index}` },
}));

const column = (
  columnType: ColumnSchema['columnType'],
  extra: Partial<ColumnSchema> = {},
): ColumnSchema => ({
  type: 'Column',
  columnType,
  filterOperators: new Set([
    'Equal',
    'NotEqual',
    'In',
    'GreaterThan',
    'LessThan',
    'Present',
    'Blank',
  ]),
  isSortable: true,
  ...extra,
});

abstract class StubCollection extends BaseCollection {
  constructor(name: string, dataSource: BaseDataSource, fields: Record<string, FieldSchema>) {
    super(name, dataSource, null);
    this.addFields(fields);
    this.enableCount();
  }
  async create() {
    return [];
  }
  async update() {}
  async delete() {}
  async aggregate() {
    return [{ value: 250_000, group: {} }];
  }
}

class Orders extends StubCollection {
  // A read by id (get: a one-record page) answers one row, a list the 15, copied as a driver would.
  async list(_caller: unknown, filter: PaginatedFilter) {
    const rows = filter.page?.limit === 1 ? ROWS.slice(0, 1) : ROWS;
    return rows.map((row) => ({ ...row, customer: { ...row.customer } }));
  }
}

class Customers extends StubCollection {
  async list() {
    return [];
  }
}

class StubDataSource extends BaseDataSource {
  constructor() {
    super();
    this.addCollection(
      new Orders('orders', this, {
        id: column('Number', { isPrimaryKey: true, isReadOnly: true }),
        customer_id: column('Number'),
        status: column('String'),
        amount: column('Number'),
        placed_at: column('Date'),
        customer: {
          type: 'ManyToOne',
          foreignCollection: 'customers',
          foreignKey: 'customer_id',
          foreignKeyTarget: 'id',
        },
      }),
    );
    this.addCollection(
      new Customers('customers', this, {
        id: column('Number', { isPrimaryKey: true }),
        name: column('String'),
        email: column('String'),
        orders: {
          type: 'OneToMany',
          foreignCollection: 'orders',
          originKey: 'customer_id',
          originKeyTarget: 'id',
        },
      }),
    );
  }
}

const rights = { roles: [1] };
const services: AgentServices = {
  dataSource: new StubDataSource(),
  options: {
    authSecret: AUTH_SECRET,
    prefix: '/forest',
    isProduction: true,
    useUnsafeActionEndpoint: false,
  },
  logger: () => undefined,
  permissions: {
    getEnvironmentPermissions: async () => ({
      collections: Object.fromEntries(
        ['orders', 'customers'].map((name) => [
          name,
          {
            collection: {
              browseEnabled: rights,
              readEnabled: rights,
              editEnabled: rights,
              addEnabled: rights,
              deleteEnabled: rights,
              exportEnabled: rights,
            },
            actions: {},
          },
        ]),
      ),
    }),
    getUsers: async () => [
      {
        id: 1,
        firstName: 'T',
        lastName: 'U',
        fullName: 'T U',
        email: 't@u.test',
        permissionLevel: 'user',
        roleId: 1,
        tags: {},
      },
    ],
    getRenderingPermissions: async () => ({
      team: { id: 1, name: 'admin' },
      collections: {},
      stats: [],
    }),
    invalidateEnvironmentPermissions: () => undefined,
    invalidateUsers: () => undefined,
    invalidateRenderingPermissions: () => undefined,
  },
  activityLogs: { record: () => undefined },
  ipWhitelist: null,
  authentication: {
    getAuthorizationUrl: async () => '',
    handleCallback: async () => {
      throw new Error('no login in the benchmark');
    },
  },
};

// Built once from the same permission documents, as the platform client's caches hand them out.
const environment = services.permissions.getEnvironmentPermissions();
const users = services.permissions.getUsers();
const rendering = services.permissions.getRenderingPermissions(1);
Object.assign(services.permissions, {
  getEnvironmentPermissions: () => environment,
  getUsers: () => users,
  getRenderingPermissions: () => rendering,
});

const slot = new RouterSlot('/forest');
slot.set(createAgentPipeline(services));
const agent = new StandaloneServer(slot, 0, '127.0.0.1');
const raw = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(ROWS));
}).listen(0, '127.0.0.1');

process.on('SIGTERM', () => process.exit(0));

serveAllocationProfile();

Promise.all([agent.listen(), new Promise((resolve) => raw.once('listening', resolve))]).then(() => {
  const token = signSessionToken(
    {
      id: 1,
      email: 't@u.test',
      firstName: 'T',
      lastName: 'U',
      team: 'admin',
      role: 'Admin',
      permissionLevel: 'user',
      renderingId: 1,
      tags: {},
    },
    AUTH_SECRET,
  );
  process.send?.({
    port: agent.listeningPort,
    rawPort: (raw.address() as AddressInfo).port,
    token,
  });
});
