import { describe, expect, it } from 'vitest';
import {
  AgentClient,
  attachmentName,
  changeBody,
  dataUriInfo,
  executeAttributes,
  fieldKind,
  formPages,
  formValues,
  isDynamicSearch,
  missingRequired,
  readActionResult,
  redirectTarget,
  searchBody,
  staticForm,
  widgetOptions,
  withValue,
  type ActionField,
  type ActionForm,
} from '.';

const field = (type: ActionField['type'], extra: Partial<ActionField> = {}): ActionField => ({
  field: 'f',
  type,
  ...extra,
});

describe('fieldKind', () => {
  it('gives each of the 14 field types its own input', () => {
    expect(
      [
        field('String'),
        field('Number'),
        field('Boolean'),
        field('Date'),
        field('Dateonly'),
        field('Time'),
        field('Enum'),
        field(['Enum']),
        field('File'),
        field(['File']),
        field('Json'),
        field('Number', { reference: 'customers.id' }),
        field(['Number']),
        field(['String']),
      ].map(fieldKind),
    ).toEqual([
      'string',
      'number',
      'boolean',
      'date',
      'dateonly',
      'time',
      'enum',
      'enumList',
      'file',
      'fileList',
      'json',
      'collection',
      'numberList',
      'stringList',
    ]);
  });
});

describe('forms', () => {
  const form: ActionForm = {
    fields: [
      { field: 'Reason', type: 'Enum', enums: ['late', 'other'], isRequired: true, value: null },
      { field: 'Amount', type: 'Number', isRequired: true, value: 12 },
      { field: 'Locked', type: 'String', isRequired: true, isReadOnly: true, value: null },
      { field: 'Tags', type: ['String'], isRequired: true, value: [] },
    ],
    layout: [],
  };

  it('names the required fields still empty, not read-only ones', () => {
    expect(missingRequired(form)).toEqual({
      Reason: 'Reason is required.',
      Tags: 'Tags is required.',
    });
    const filled = withValue(withValue(form, 'Reason', 'late'), 'Tags', ['a']);
    expect(missingRequired(filled)).toEqual({});
    expect(formValues(filled)).toEqual({ Reason: 'late', Amount: 12, Locked: null, Tags: ['a'] });
  });

  it('uses the schema form (defaults as values) unless the form is dynamic', () => {
    expect(
      staticForm({
        name: 'Restock',
        endpoint: '/forest/_actions/products/0/restock',
        fields: [{ field: 'Quantity', type: 'Number', defaultValue: 10 }],
        hooks: { load: false },
      }),
    ).toEqual({ fields: [{ field: 'Quantity', type: 'Number', value: 10 }], layout: [] });
    expect(
      staticForm({
        name: 'Refund',
        endpoint: '/forest/_actions/orders/1/refund',
        fields: [{ field: 'Loading...', type: 'String' }],
        hooks: { load: true },
      }),
    ).toBeUndefined();
  });

  it('sends the change hook the whole field list and the changed field', () => {
    const body = changeBody('orders', { ids: ['7'] }, 'Europe/Paris', form, 'Reason');
    expect(body.data.type).toBe('custom-action-hook-requests');
    expect(body.data.attributes).toMatchObject({
      collection_name: 'orders',
      ids: ['7'],
      changed_field: 'Reason',
      all_records: false,
    });
    expect(body.data.attributes.fields).toHaveLength(4);
    const search = searchBody('orders', { ids: ['7'] }, 'UTC', form, 'Reason', 'la');
    expect(search.data.attributes.search_field).toBe('Reason');
    expect(search.data.attributes.fields[0]).toMatchObject({ field: 'Reason', searchValue: 'la' });
    expect(search.data.attributes.fields[1]).not.toHaveProperty('searchValue');
  });

  it('builds the execute attributes of a bulk selection of every record but some', () => {
    const attributes = executeAttributes(
      'orders',
      { id: 'orders-0-ship', name: 'Ship', endpoint: '/forest/_actions/orders/0/ship' },
      {
        ids: ['3'],
        allRecords: true,
        filters: { field: 'status', operator: 'equal', value: 'paid' },
      },
      'UTC',
      { fields: [{ field: 'Note', type: 'String', value: 'x' }], layout: [] },
    );
    expect(attributes).toMatchObject({
      ids: [],
      all_records: true,
      all_records_ids_excluded: ['3'],
      values: { Note: 'x' },
      smart_action_id: 'orders-0-ship',
    });
    expect(
      JSON.parse((attributes.all_records_subset_query as { filters: string }).filters),
    ).toEqual({ field: 'status', operator: 'equal', value: 'paid' });
  });

  it('reads dropdown options and dynamic search', () => {
    const dropdown = field('String', {
      widgetEdit: {
        name: 'dropdown',
        parameters: {
          searchType: 'dynamic',
          static: { options: ['UPS', { label: 'D H L', value: 'DHL' }] },
        },
      },
    });
    expect(widgetOptions(dropdown)).toEqual([
      { label: 'UPS', value: 'UPS' },
      { label: 'D H L', value: 'DHL' },
    ]);
    expect(isDynamicSearch(dropdown)).toBe(true);
    expect(isDynamicSearch(field('String'))).toBe(false);
  });

  it('lays out pages and rows, dropping fields hidden by `if`', () => {
    const paged: ActionForm = {
      fields: [{ field: 'Carrier', type: 'String' }],
      layout: [
        {
          component: 'page',
          elements: [
            { component: 'htmlBlock', content: '<h3>Shipping</h3>' },
            {
              component: 'row',
              fields: [
                { component: 'input', fieldId: 'Carrier' },
                { component: 'input', fieldId: 'Fee' },
              ],
            },
          ],
        },
        { component: 'page', elements: [{ component: 'input', fieldId: 'Fee' }] },
      ],
    };
    expect(formPages(paged)).toEqual([
      [
        { component: 'htmlBlock', content: '<h3>Shipping</h3>' },
        { component: 'row', fields: [{ component: 'input', fieldId: 'Carrier' }] },
      ],
      [],
    ]);
    expect(formPages({ fields: [{ field: 'A', type: 'String' }], layout: [] })).toEqual([
      [{ component: 'input', fieldId: 'A' }],
    ]);
  });
});

describe('results', () => {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });

  it('reads every result type of §9.6 and the approval of §9.7', async () => {
    expect(
      await readActionResult(
        json(200, {
          success: 'Refunded',
          html: '<p>ok</p>',
          refresh: { relationships: ['payments'] },
        }),
      ),
    ).toEqual({ kind: 'success', message: 'Refunded', html: '<p>ok</p>', refresh: ['payments'] });
    expect(await readActionResult(json(400, { error: 'No way', html: '<b>no</b>' }))).toEqual({
      kind: 'error',
      message: 'No way',
      html: '<b>no</b>',
    });
    expect(
      await readActionResult(
        json(200, {
          webhook: { url: 'https://h.example', method: 'POST', headers: {}, body: { a: 1 } },
        }),
      ),
    ).toMatchObject({ kind: 'webhook', url: 'https://h.example', body: { a: 1 } });
    expect(await readActionResult(json(200, { redirectTo: '/a/b' }))).toEqual({
      kind: 'redirect',
      to: '/a/b',
    });
    const file = await readActionResult(
      new Response('reference,total\n', {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="invoices.csv"',
        },
      }),
    );
    expect(file.kind === 'file' && [file.filename, await file.blob.text()]).toEqual([
      'invoices.csv',
      'reference,total\n',
    ]);
    expect(
      await readActionResult(
        json(403, {
          errors: [
            {
              name: 'CustomActionRequiresApprovalError',
              detail: 'This action requires to be approved.',
              status: 403,
              data: { roleIdsAllowedToApprove: [1, 3] },
            },
          ],
        }),
      ),
    ).toEqual({
      kind: 'approval',
      message: 'This action requires to be approved.',
      roleIdsAllowedToApprove: [1, 3],
    });
  });

  it('reads attachment names, and keeps redirects to http(s) or this console', () => {
    expect(attachmentName('attachment; filename="a \\"b\\".txt"')).toBe('a "b".txt');
    expect(attachmentName("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf")).toBe('résumé.pdf');
    expect(attachmentName(null)).toBe('file');
    expect(redirectTarget('/Shop/Production/data/orders')).toEqual({
      internal: '/Shop/Production/data/orders',
    });
    expect(redirectTarget('https://crm.example.com/c/1')).toEqual({
      external: 'https://crm.example.com/c/1',
    });
    expect(redirectTarget('javascript:alert(1)')).toBeUndefined();
    expect(redirectTarget('//evil.example')).toBeUndefined();
    expect(dataUriInfo('data:text/csv;name=a%20b.csv;base64,QQ==')).toEqual({
      mime: 'text/csv',
      name: 'a b.csv',
    });
  });

  it('calls the schema endpoint under the agent, and throws on a forbidden trigger', async () => {
    const calls: { url: string; body: unknown }[] = [];
    const client = new AgentClient({
      baseUrl: 'https://agent.example/',
      timezone: 'UTC',
      getToken: () => 't',
      fetch: async (url, init) => {
        calls.push({ url: String(url), body: JSON.parse(String(init?.body)) });
        return String(url).includes('/hooks/')
          ? json(200, { fields: [{ field: 'A', type: 'String', value: 'x' }], layout: [] })
          : json(403, {
              errors: [
                {
                  name: 'CustomActionTriggerForbiddenError',
                  detail: "You don't have permission to trigger this action.",
                },
              ],
            });
      },
    });
    const form = await client.actionHook('/forest/_actions/orders/0/ship', 'load', { data: {} });
    expect(form.fields[0]?.value).toBe('x');
    expect(calls[0]?.url).toBe(
      'https://agent.example/forest/_actions/orders/0/ship/hooks/load?timezone=UTC',
    );
    await expect(client.executeAction('/forest/_actions/orders/0/ship', {})).rejects.toMatchObject({
      status: 403,
      message: "You don't have permission to trigger this action.",
    });
  });
});
