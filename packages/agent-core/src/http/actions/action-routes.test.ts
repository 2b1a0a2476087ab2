import express from 'express';
import jwt from 'jsonwebtoken';
import request from 'supertest';

import type { ActionRightsJson, CollectionRightsJson } from '../../platform/permission-source';
import { createAgentRouter } from '../create-agent-router';
import { ShopWithActions } from '../test-fixtures/action-collection';
import { bearer, createTestServices } from '../test-fixtures/shop-services';

const ENV_SECRET = 'env-secret-'.padEnd(64, 'e');

function setup(options: { unsafe?: boolean } = {}) {
  const dataSource = new ShopWithActions();
  const services = createTestServices(dataSource);
  const withSecret = {
    ...services,
    options: {
      ...services.options,
      envSecret: ENV_SECRET,
      useUnsafeActionEndpoint: options.unsafe ?? false,
    },
  };
  const app = express();
  app.use(createAgentRouter(withSecret));
  const post = (path: string, body?: unknown, auth = bearer()) =>
    request(app)
      .post(path)
      .set('Authorization', auth)
      .send(body as object);
  return { services, dataSource, post };
}

const selection = (ids: string[], extra: Record<string, unknown> = {}) => ({
  data: {
    type: 'custom-action-requests',
    attributes: { collection_name: 'orders', ids, ...extra },
  },
});

const ALL_RIGHTS: CollectionRightsJson = {
  browseEnabled: true,
  readEnabled: true,
  editEnabled: true,
  addEnabled: true,
  deleteEnabled: true,
  exportEnabled: true,
};

function actionRights(rights: Partial<ActionRightsJson>): ActionRightsJson {
  return {
    triggerEnabled: { roles: [1] },
    approvalRequired: false,
    userApprovalEnabled: { roles: [1, 2] },
    selfApprovalEnabled: false,
    ...rights,
  };
}

describe('action routes', () => {
  it('executes with decoded values and answers a success result', async () => {
    const { post, dataSource, services } = setup();
    const receipt = `data:application/pdf;name=${encodeURIComponent('re ceipt.pdf')};base64,${Buffer.from('PDF').toString('base64')}`;
    const response = await post(
      '/forest/_actions/orders/0/mark-as-paid?timezone=UTC',
      selection(['101', '102'], {
        values: {
          'Payment method': 'card',
          'Assigned to': '2',
          Receipt: receipt,
          'Loading...': 'x',
        },
      }),
    ).expect(200);
    expect(response.body).toEqual({
      success: '2 orders marked as paid',
      html: '<p>Done</p>',
      refresh: { relationships: ['payments'] },
    });
    const [execution] = dataSource.orders.executions;
    expect(execution?.selectedIds).toEqual([101, 102]);
    expect(execution?.values).toEqual({
      'Payment method': 'card',
      'Assigned to': [2],
      Receipt: { mimeType: 'application/pdf', buffer: Buffer.from('PDF'), name: 're ceipt.pdf' },
    });
    expect(services.logs.at(-1)).toMatchObject({
      action: 'action',
      label: 'Mark as paid',
      recordIds: ['101', '102'],
    });
  });

  it('answers every result type in its wire form', async () => {
    const { post } = setup();
    const error = await post(
      '/forest/_actions/orders/1/refund-partial-?timezone=UTC',
      selection(['101']),
    ).expect(400);
    expect(error.body).toEqual({
      error: 'Order has no payment method',
      html: '<strong>Fix it</strong>',
    });
    const webhook = await post(
      '/forest/_actions/orders/2/notify?timezone=UTC',
      selection(['101']),
    ).expect(200);
    expect(webhook.body).toEqual({
      webhook: {
        url: 'https://hooks.example.com/notify',
        method: 'POST',
        headers: { 'x-api-key': 'k' },
        body: { ids: [101] },
      },
    });
    const redirect = await post(
      '/forest/_actions/orders/3/open-payments?timezone=UTC',
      selection(['101']),
    ).expect(200);
    expect(redirect.body).toEqual({ redirectTo: '/Shop/Production/Ops/data/payments/index' });
    const file = await post(
      '/forest/_actions/orders/4/export-invoice?timezone=UTC',
      selection(['101']),
    ).expect(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="invoice.csv"');
    expect(file.headers['access-control-expose-headers']).toBe('Content-Disposition');
    expect(file.headers['x-report-id']).toBe('r-77');
    expect(file.text).toBe('reference,total\nSO-0101,120\n');
  });

  it('runs a global action on every record matching the subset query, ids ignored', async () => {
    const { post, dataSource } = setup();
    await post(
      '/forest/_actions/orders/6/archive-all?timezone=UTC',
      selection(['101'], {
        all_records_subset_query: {
          filters: '{"field":"status","operator":"equal","value":"pending"}',
        },
      }),
    ).expect(200);
    expect(dataSource.orders.executions[0]?.selectedIds).toEqual([102, 103]);
  });

  it('restricts the selection to the records of a parent relation', async () => {
    const { post, dataSource } = setup();
    await post(
      '/forest/_actions/orders/0/mark-as-paid?timezone=UTC',
      selection([], {
        all_records: true,
        parent_collection_name: 'customers',
        parent_collection_id: '2',
        parent_association_name: 'orders',
      }),
    ).expect(200);
    expect(dataSource.orders.executions[0]?.selectedIds).toEqual([103]);
  });

  it('answers 404 for an unknown action, a wrong index or a wrong slug', async () => {
    const { post } = setup();
    for (const path of [
      '/forest/_actions/orders/9/nope',
      '/forest/_actions/orders/1/mark-as-paid',
      '/forest/_actions/nope/0/x',
    ]) {
      const response = await post(`${path}?timezone=UTC`, selection(['101'])).expect(404);
      expect(response.body.errors[0].name).toBe('NotFoundError');
    }
  });

  it('serves the unsafe endpoint without index', async () => {
    const { post } = setup({ unsafe: true });
    await post('/forest/_actions/orders/notify?timezone=UTC', selection(['101'])).expect(200);
  });

  it('refuses a forged requester id', async () => {
    const { post } = setup();
    const response = await post(
      '/forest/_actions/orders/2/notify?timezone=UTC',
      selection(['101'], { requester_id: 1 }),
    ).expect(422);
    expect(response.body.errors[0]).toEqual({
      name: 'UnprocessableError',
      detail: 'Unexpected error',
      status: 422,
    });
  });

  describe('forms', () => {
    it('loads a dynamic form with hidden fields left out', async () => {
      const { post } = setup();
      const response = await post(
        '/forest/_actions/orders/0/mark-as-paid/hooks/load?timezone=UTC',
        {
          data: { attributes: { collection_name: 'orders', ids: ['101'], values: {} } },
        },
      ).expect(200);
      expect(response.body).toEqual({
        fields: [
          {
            field: 'Payment method',
            label: 'Payment method',
            isRequired: true,
            isReadOnly: false,
            type: 'Enum',
            enums: ['card', 'cash'],
            value: null,
          },
          {
            field: 'Notify customer',
            label: 'Notify customer',
            isRequired: false,
            isReadOnly: false,
            type: 'Boolean',
            hook: 'changeHook',
            value: false,
          },
          {
            field: 'Assigned to',
            label: 'Assigned to',
            isRequired: false,
            isReadOnly: false,
            type: 'Number',
            reference: 'customers.id',
          },
          {
            field: 'Receipt',
            label: 'Receipt',
            isRequired: false,
            isReadOnly: false,
            type: 'File',
            value: null,
          },
        ],
        layout: [],
      });
    });

    it('recomputes the form on change, with reference values unpacked', async () => {
      const { post } = setup();
      const response = await post(
        '/forest/_actions/orders/0/mark-as-paid/hooks/change?timezone=UTC',
        {
          data: {
            attributes: {
              collection_name: 'orders',
              ids: ['101'],
              changed_field: 'Notify customer',
              fields: [
                { field: 'Payment method', type: 'Enum', value: 'card' },
                { field: 'Notify customer', type: 'Boolean', value: true },
                { field: 'Assigned to', type: 'Number', reference: 'customers.id', value: '2' },
              ],
            },
          },
        },
      ).expect(200);
      const fields = response.body.fields as { field: string; value?: unknown }[];
      expect(fields.map((field) => field.field)).toEqual([
        'Payment method',
        'Notify customer',
        'Assigned to',
        'Receipt',
        'Message',
      ]);
      expect(fields.find((field) => field.field === 'Assigned to')?.value).toBe('2');
      expect(fields.find((field) => field.field === 'Message')?.value).toBe('Thanks!');
    });

    it('answers a dynamic dropdown search with the searched field only', async () => {
      const { post } = setup();
      const response = await post('/forest/_actions/orders/5/ship/hooks/search?timezone=UTC', {
        data: {
          attributes: {
            ids: ['101'],
            search_field: 'carrier',
            fields: [
              { field: 'carrier', type: 'String', value: null, searchValue: 'd' },
              { field: 'Note', value: 'fragile' },
            ],
          },
        },
      }).expect(200);
      expect(response.body).toEqual({
        fields: [
          {
            field: 'carrier',
            label: 'Carrier',
            isRequired: false,
            isReadOnly: false,
            type: 'String',
            value: null,
            widgetEdit: {
              name: 'dropdown',
              parameters: {
                placeholder: null,
                isSearchable: true,
                searchType: 'dynamic',
                static: {
                  options: [
                    { label: 'DHL', value: 'DHL' },
                    { label: 'FedEx', value: 'FedEx' },
                  ],
                },
              },
            },
          },
        ],
        layout: [],
      });
    });

    it('returns the layout of a form that declares one', async () => {
      const { post } = setup();
      const response = await post('/forest/_actions/orders/5/ship/hooks/load?timezone=UTC', {
        data: { attributes: { ids: ['101'] } },
      }).expect(200);
      expect(response.body.layout).toEqual([
        { component: 'input', fieldId: 'carrier' },
        { component: 'input', fieldId: 'Note' },
        { component: 'separator' },
      ]);
    });
  });

  describe('permissions and approvals', () => {
    function withRights(rights: ActionRightsJson) {
      const context = setup();
      context.services.permissions.environment = {
        collections: {
          orders: { collection: ALL_RIGHTS, actions: { Notify: rights, 'Mark as paid': rights } },
        },
      };
      return context;
    }

    it('refuses a trigger without the right, on execute and on hooks', async () => {
      const { post } = withRights(actionRights({ triggerEnabled: { roles: [2] } }));
      const execute = await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection(['101']),
      ).expect(403);
      expect(execute.body.errors[0]).toEqual({
        name: 'CustomActionTriggerForbiddenError',
        detail: "You don't have permission to trigger this action.",
        status: 403,
      });
      const hook = await post(
        '/forest/_actions/orders/0/mark-as-paid/hooks/load?timezone=UTC',
        selection(['101']),
      ).expect(403);
      expect(hook.body.errors[0].name).toBe('ForbiddenError');
    });

    it('checks trigger conditions against every selected record', async () => {
      const { post } = withRights(
        actionRights({
          triggerConditions: [
            { roleId: 1, filter: { field: 'status', operator: 'Equal', value: 'pending' } },
          ],
        }),
      );
      await post('/forest/_actions/orders/2/notify?timezone=UTC', selection(['102'])).expect(200);
      await post(
        '/forest/_actions/orders/0/mark-as-paid?timezone=UTC',
        selection(['101', '102']),
      ).expect(403);
    });

    it('requires an approval, listing the roles that may give it', async () => {
      const { post } = withRights(actionRights({ approvalRequired: { roles: [1] } }));
      const response = await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection(['101']),
      ).expect(403);
      expect(response.body.errors[0]).toEqual({
        name: 'CustomActionRequiresApprovalError',
        detail: 'This action requires to be approved.',
        status: 403,
        data: { roleIdsAllowedToApprove: [1, 2] },
      });
    });

    it('requires the approval only when a selected record matches the approval condition', async () => {
      const { post } = withRights(
        actionRights({
          approvalRequired: { roles: [1] },
          approvalRequiredConditions: [
            { roleId: 1, filter: { field: 'total', operator: 'GreaterThan', value: 100 } },
          ],
        }),
      );
      await post('/forest/_actions/orders/2/notify?timezone=UTC', selection(['102'])).expect(200);
      await post('/forest/_actions/orders/2/notify?timezone=UTC', selection(['101'])).expect(403);
    });

    it('executes a platform-signed approval of another user, and refuses self-approval without the right', async () => {
      const { post, dataSource } = withRights(actionRights({ approvalRequired: { roles: [1] } }));
      const signed = (requesterId: number) =>
        jwt.sign(
          selection(['101'], {
            requester_id: requesterId,
            values: {},
            smart_action_id: 'orders-2-notify',
          }),
          ENV_SECRET,
          { algorithm: 'HS256' },
        );
      await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection([], { signed_approval_request: signed(9) }),
      ).expect(200);
      expect(dataSource.orders.executions[0]?.selectedIds).toEqual([101]);
      const self = await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection([], { signed_approval_request: signed(1) }),
      ).expect(403);
      expect(self.body.errors[0].name).toBe('ApprovalNotAllowedError');
      const forged = jwt.sign(
        selection(['101'], { requester_id: 9, smart_action_id: 'orders-2-notify' }),
        'not-the-secret',
      );
      await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection([], { signed_approval_request: forged }),
      ).expect(403);
    });

    it('runs only the approved action: another action, collection or selection is refused or ignored', async () => {
      const { post, dataSource } = withRights(actionRights({ approvalRequired: { roles: [1] } }));
      const approval = (attributes: Record<string, unknown>) =>
        jwt.sign(
          {
            data: {
              type: 'custom-action-requests',
              attributes: { requester_id: 9, ...attributes },
            },
          },
          ENV_SECRET,
          { algorithm: 'HS256' },
        );
      const approved = {
        collection_name: 'orders',
        smart_action_id: 'orders-2-notify',
        ids: ['101'],
        values: {},
      };
      // An approval of "notify" replayed on "mark as paid".
      const otherAction = await post(
        '/forest/_actions/orders/0/mark-as-paid?timezone=UTC',
        selection([], { signed_approval_request: approval(approved) }),
      ).expect(403);
      expect(otherAction.body.errors[0]).toMatchObject({
        name: 'ForbiddenError',
        detail:
          'The signed approval request approves "orders-2-notify" on "orders", not "orders-0-mark-as-paid" on "orders": the agent runs only the approved action',
      });
      // An approval signed for another collection, sent to this one.
      await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection([], {
          signed_approval_request: approval({ ...approved, collection_name: 'customers' }),
        }),
      ).expect(403);
      // An approval that names no action.
      const unnamed = await post(
        '/forest/_actions/orders/2/notify?timezone=UTC',
        selection([], {
          signed_approval_request: approval({ collection_name: 'orders', ids: ['101'] }),
        }),
      ).expect(403);
      expect(unnamed.body.errors[0].detail).toContain('does not name the approved collection');
      expect(dataSource.orders.executions).toHaveLength(0);
      // Records come from the signed body only: a filter in the query string widens nothing.
      await post(
        '/forest/_actions/orders/2/notify?timezone=UTC&filters=' +
          encodeURIComponent(JSON.stringify({ field: 'id', operator: 'Equal', value: 102 })),
        selection([], {
          signed_approval_request: approval({
            ...approved,
            ids: [],
            all_records: true,
            all_records_subset_query: {},
          }),
        }),
      );
      expect(dataSource.orders.executions.at(-1)?.selectedIds).not.toEqual([102]);
    });
  });
});

describe('unsafe action endpoints', () => {
  it('refuses to build the router when two actions of a collection share a slug', () => {
    const dataSource = new ShopWithActions();
    (dataSource.orders.schema.actions as Record<string, unknown>)['mark as paid'] = {
      scope: 'Single',
      generateFile: false,
      staticForm: true,
    };
    const services = createTestServices(dataSource);
    expect(() =>
      createAgentRouter({
        ...services,
        options: { ...services.options, useUnsafeActionEndpoint: true },
      }),
    ).toThrow(
      "Actions 'Mark as paid' and 'mark as paid' of 'orders' both have the route slug 'mark-as-paid'",
    );
  });
});

describe('scopes on action selections', () => {
  it('narrows a bulk selection of all records to the scope', async () => {
    const { post, dataSource, services } = setup();
    services.permissions.rendering = {
      team: {},
      collections: {
        orders: { scope: { field: 'region', operator: 'Equal', value: 'EU' }, segments: [] },
      },
      stats: [],
    };
    await post(
      '/forest/_actions/orders/0/mark-as-paid?timezone=UTC',
      selection([], { all_records: true }),
    ).expect(200);
    expect(dataSource.orders.executions[0]?.selectedIds).toEqual([101, 103]);
    await post('/forest/_actions/orders/0/mark-as-paid?timezone=UTC', selection(['102'])).expect(
      200,
    );
    expect(dataSource.orders.executions[1]?.selectedIds).toEqual([]);
  });
});
