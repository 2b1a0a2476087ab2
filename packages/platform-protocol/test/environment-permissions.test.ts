import { environmentPermissions } from '../src/environment-permissions';
import type { PlainConditionTree } from '../src/role-rights';

const collections = [
  { name: 'orders', actionNames: ['Refund order'] },
  { name: 'customers', actionNames: [] },
];

it('grants every right a role does not mention, except approval', () => {
  const built = environmentPermissions(collections, [
    { id: 1, rights: {} },
    {
      id: 2,
      rights: {
        collections: { orders: { editEnabled: false, deleteEnabled: false } },
        actions: { orders: { 'Refund order': { triggerEnabled: false, approvalRequired: true } } },
      },
    },
  ]);
  expect(built.collections.orders).toEqual({
    collection: {
      browseEnabled: { roles: [1, 2] },
      readEnabled: { roles: [1, 2] },
      editEnabled: { roles: [1] },
      addEnabled: { roles: [1, 2] },
      deleteEnabled: { roles: [1] },
      exportEnabled: { roles: [1, 2] },
    },
    actions: {
      'Refund order': {
        triggerEnabled: { roles: [1] },
        triggerConditions: [],
        approvalRequired: { roles: [2] },
        approvalRequiredConditions: [],
        userApprovalEnabled: { roles: [1, 2] },
        userApprovalConditions: [],
        selfApprovalEnabled: { roles: [1, 2] },
      },
    },
  });
  expect(built.collections.customers).toMatchObject({
    collection: { editEnabled: { roles: [1, 2] } },
    actions: {},
  });
});

it('lists no role for a right when the project has no role', () => {
  const built = environmentPermissions(collections, []);
  expect(built.collections.customers).toMatchObject({
    collection: { browseEnabled: { roles: [] } },
  });
});

it('lists each role condition of an action as {roleId, filter}', () => {
  const filter: PlainConditionTree = {
    field: 'amount',
    operator: 'less_than',
    value: 500,
    source: 'data',
  };
  const built = environmentPermissions(collections, [
    { id: 1, rights: {} },
    {
      id: 2,
      rights: {
        actions: {
          orders: {
            'Refund order': {
              triggerConditions: filter,
              approvalRequired: true,
              approvalRequiredConditions: null,
              userApprovalConditions: { aggregator: 'or', conditions: [filter] },
            },
          },
        },
      },
    },
  ]);
  expect(built.collections.orders).toMatchObject({
    actions: {
      'Refund order': {
        triggerEnabled: { roles: [1, 2] },
        triggerConditions: [{ roleId: 2, filter }],
        approvalRequired: { roles: [2] },
        approvalRequiredConditions: [],
        userApprovalConditions: [{ roleId: 2, filter: { aggregator: 'or', conditions: [filter] } }],
      },
    },
  });
});
