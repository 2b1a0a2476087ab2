import type { PermissionSource } from '../platform/permission-source';
import type { AgentServices } from '../platform/agent-services';
import { DataSourceCustomizer } from '../customizer/data-source-customizer';
import { InMemoryDataSource } from '../toolkit/in-memory/in-memory-data-source';
import type { Collection } from '../toolkit/interfaces/collection';
import type { RecordData } from '../toolkit/record/record-utils';
import type { OperationCaller, OperationContext } from './context';
import { executeAction } from './execute-action';
import { PermissionChecker } from './permissions/permission-checker';
import type { SessionClaims } from './session-claims';

// A development environment (every action allowed), so only the form and the execution matter.
const permissions = {
  getEnvironmentPermissions: () => Promise.resolve(true),
  getRenderingPermissions: () => Promise.resolve({ team: {}, collections: {}, stats: [] }),
  getUsers: () => Promise.resolve([]),
} as unknown as PermissionSource;

const claims = { id: 1, renderingId: 1, permissionLevel: 'admin' } as SessionClaims;
const who = { claims, caller: { id: 1, timezone: 'UTC' } } as unknown as OperationCaller;

async function setUp() {
  const received: RecordData[] = [];
  const customizer = new DataSourceCustomizer();
  customizer.addDataSource(
    async () =>
      new InMemoryDataSource({
        customers: {
          fields: { id: { type: 'Column', columnType: 'Number', isPrimaryKey: true } },
          records: [{ id: 4 }],
        },
        orders: {
          fields: { id: { type: 'Column', columnType: 'Number', isPrimaryKey: true } },
          records: [{ id: 1 }],
        },
      }),
  );
  const execute = async (context: { formValues: RecordData }) => {
    received.push(context.formValues);
  };
  customizer.customizeCollection('orders', (orders) => {
    orders.addAction('Assign', {
      scope: 'Global',
      form: [{ type: 'Collection', label: 'Customer', collectionName: 'customers' }],
      execute,
    });
    orders.addAction('Note', {
      scope: 'Global',
      form: [
        { type: 'String', label: 'Text' },
        { type: 'Collection', label: 'Customer', collectionName: 'customers', if: () => true },
      ],
      execute,
    });
  });
  const dataSource = await customizer.getDataSource();
  const collection = dataSource.getCollection('orders') as Collection;
  const getForm = jest.spyOn(collection, 'getForm');
  const context = {
    services: { activityLogs: { record: () => undefined } } as unknown as AgentServices,
    permissions: new PermissionChecker(permissions),
    collections: new Map([['orders', collection]]),
  } as unknown as OperationContext;
  const run = (name: string, values: Record<string, unknown>) =>
    executeAction(
      context,
      who,
      { collection, name },
      {
        records: { filter: {}, selection: null, parent: null, packedIds: [] },
        values,
        requesterId: null,
      },
    );
  return { received, getForm, run };
}

describe('executeAction', () => {
  it('reads a static form once to decode values, and no form when nothing needs decoding', async () => {
    const { received, getForm, run } = await setUp();
    await run('Assign', { Customer: '4' });
    await run('Assign', { Customer: '4' });
    await run('Assign', {});
    await run('Assign', { Customer: null, 'Loading...': 'x' });
    // The packed id was decoded against the form's Collection field both times.
    expect(received).toEqual([{ Customer: [4] }, { Customer: [4] }, {}, { Customer: null }]);
    expect(getForm).toHaveBeenCalledTimes(1);
  });

  it('reads a dynamic form on every execution that sends values to decode', async () => {
    const { received, getForm, run } = await setUp();
    await run('Note', { Text: 'hi', Customer: '4' });
    await run('Note', { Text: 'again', Customer: '4' });
    expect(received).toEqual([
      { Text: 'hi', Customer: [4] },
      { Text: 'again', Customer: [4] },
    ]);
    expect(getForm).toHaveBeenCalledTimes(2);
  });
});
