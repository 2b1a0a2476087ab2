import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCanopyError } from '../toolkit/errors/canopy-error';
import { NamesDataSource, ShopDataSource } from './shop-fixture';
import { actionSlug, generateActions } from './action-schema-generator';
import { generateSchema } from './schema-generator';
import { AGENT_VERSION } from './schema-meta';

const routes = { prefix: '/forest', useUnsafeActionEndpoint: false };

describe('generateSchema', () => {
  it('describes collections, fields, relations, actions and segments as protocol §13 does', async () => {
    const schema = await generateSchema(new ShopDataSource(), routes);
    expect(schema.collections.map((collection) => collection.name)).toEqual([
      'customers',
      'orders',
    ]);
    const [customers, orders] = schema.collections;

    expect(customers?.fields).toEqual([
      {
        defaultValue: null,
        enums: [],
        field: 'email',
        integration: null,
        inverseOf: null,
        isFilterable: true,
        isPrimaryKey: false,
        isReadOnly: false,
        isRequired: true,
        isSortable: true,
        isVirtual: false,
        reference: null,
        type: 'String',
        validations: [{ message: 'Field is required', type: 'is present' }],
      },
      expect.objectContaining({
        field: 'id',
        isPrimaryKey: true,
        isReadOnly: true,
        type: 'Number',
      }),
      {
        defaultValue: null,
        enums: null,
        field: 'orders',
        integration: null,
        inverseOf: 'customer',
        isFilterable: false,
        isPrimaryKey: false,
        isReadOnly: false,
        isRequired: false,
        isSortable: true,
        isVirtual: false,
        reference: 'orders.id',
        relationship: 'HasMany',
        type: ['Number'],
        validations: [],
      },
    ]);
    expect(Object.keys(customers?.fields[2] ?? {})).toEqual(
      [...Object.keys(customers?.fields[2] ?? {})].sort(),
    );

    expect(orders?.fields.map((field) => field.field)).toEqual([
      'amount',
      'customer',
      'id',
      'status',
    ]);
    expect(orders?.fields[0]?.validations).toEqual([
      { message: 'Value must be greater than 0', type: 'is greater than', value: 0 },
    ]);
    expect(orders?.fields[1]).toMatchObject({
      field: 'customer',
      relationship: 'BelongsTo',
      reference: 'customers.id',
      inverseOf: 'orders',
      type: 'Number',
      isFilterable: true,
    });
    expect(orders?.fields[3]).toMatchObject({
      enums: ['pending', 'shipped'],
      defaultValue: 'pending',
    });
    expect(orders?.segments).toEqual([{ id: 'orders.Late', name: 'Late' }]);

    expect(orders?.actions.map((action) => action.name)).toEqual([
      'Export invoices',
      'Refund order',
    ]);
    const [exportInvoices, refund] = orders?.actions ?? [];
    expect(refund).toEqual({
      id: 'orders-0-refund-order',
      name: 'Refund order',
      type: 'single',
      baseUrl: null,
      endpoint: '/forest/_actions/orders/0/refund-order',
      httpMethod: 'POST',
      redirect: null,
      download: false,
      fields: [
        {
          field: 'Reason',
          label: 'Reason',
          isRequired: true,
          isReadOnly: false,
          type: 'Enum',
          enums: ['damaged', 'late', 'other'],
          defaultValue: 'late',
        },
        {
          field: 'Comment',
          label: 'Comment',
          isRequired: false,
          isReadOnly: false,
          type: 'String',
          hook: 'changeHook',
          widgetEdit: { name: 'text area editor', parameters: { placeholder: null, rows: 4 } },
        },
      ],
      description: 'Refunds the full amount',
      hooks: { load: false, change: ['changeHook'] },
    });
    expect(exportInvoices).toMatchObject({
      id: 'orders-1-export-invoices',
      type: 'bulk',
      download: true,
      hooks: { load: true, change: ['changeHook'] },
      fields: [{ field: 'Loading...', isReadOnly: true, defaultValue: 'Form is loading' }],
    });
    expect(schema.meta).toEqual({
      liana: 'canopy-agent',
      liana_version: AGENT_VERSION,
      liana_features: null,
      stack: { engine: 'nodejs', engine_version: process.versions.node },
    });
  });

  it('is deterministic', async () => {
    const a = await generateSchema(new ShopDataSource(), routes);
    const b = await generateSchema(new ShopDataSource(), routes);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('drops the index from routes with useUnsafeActionEndpoint and uses the prefix', async () => {
    const schema = await generateSchema(new ShopDataSource(), {
      prefix: '/admin',
      useUnsafeActionEndpoint: true,
    });
    expect(schema.collections[1]?.actions[1]).toMatchObject({
      id: 'orders-refund-order',
      endpoint: '/admin/_actions/orders/refund-order',
    });
  });

  it('refuses duplicate slugs with useUnsafeActionEndpoint, and long submit labels', async () => {
    expect(actionSlug('Refund order!')).toBe('refund-order-');
    const shop = new ShopDataSource();
    const orders = shop.getCollection('orders');
    orders.schema.actions['refund order'] = {
      scope: 'Global',
      generateFile: false,
      staticForm: false,
    };
    const duplicate = await generateActions(orders, {
      ...routes,
      useUnsafeActionEndpoint: true,
    }).catch((caught: unknown) => caught);
    expect(isCanopyError(duplicate, { code: 'DUPLICATE_ACTION_SLUG' })).toBe(true);
    expect((duplicate as Error).message).toContain("'Refund order' and 'refund order'");

    orders.schema.actions['refund order'] = {
      scope: 'Global',
      generateFile: false,
      staticForm: false,
      submitButtonLabel: 'x'.repeat(51),
    };
    const tooLong = await generateSchema(shop, routes).catch((caught: unknown) => caught);
    expect(isCanopyError(tooLong, { code: 'SUBMIT_BUTTON_LABEL_TOO_LONG' })).toBe(true);
    expect((tooLong as Error).message).toContain('51 characters; at most 50');
  });

  it('sorts collections with locale-aware comparison', async () => {
    const schema = await generateSchema(new NamesDataSource(['ba', 'B', 'a', 'b']), routes);
    expect(schema.collections.map((collection) => collection.name)).toEqual(['a', 'b', 'B', 'ba']);
  });
});

it('AGENT_VERSION follows package.json', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
  expect(AGENT_VERSION).toBe(pkg.version);
});

describe('the length limit of a column', () => {
  it('is given to the front end as "is shorter than" its length + 1, the tightest rule winning', async () => {
    const { InMemoryDataSource } = await import('../toolkit/in-memory/in-memory-data-source');
    const dataSource = new InMemoryDataSource({
      customers: {
        fields: {
          id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
          country: { type: 'Column', columnType: 'String', maxLength: 2 },
          nickname: {
            type: 'Column',
            columnType: 'String',
            maxLength: 50,
            validation: [{ operator: 'ShorterThan', value: 10 }],
          },
        },
        records: [],
      },
    });
    const schema = await generateSchema(dataSource, routes);
    const fields = schema.collections[0]?.fields ?? [];
    const validations = (name: string) => fields.find((field) => field.field === name)?.validations;
    expect(validations('country')).toEqual([
      { message: 'Value must be shorter than 3 characters', type: 'is shorter than', value: 3 },
    ]);
    expect(validations('nickname')).toEqual([
      { message: 'Value must be shorter than 10 characters', type: 'is shorter than', value: 10 },
    ]);
    expect(validations('id')).toEqual([]);
  });
});
