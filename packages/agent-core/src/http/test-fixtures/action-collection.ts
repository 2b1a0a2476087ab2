import { Readable } from 'node:stream';

import type { ActionFormElement, GetFormMetas } from '../../toolkit/action/action-form';
import type { ActionResult } from '../../toolkit/action/action-result';
import type { Caller } from '../../toolkit/caller';
import {
  InMemoryCollection,
  type InMemoryCollectionDefinition,
} from '../../toolkit/in-memory/in-memory-collection';
import { InMemoryDataSource } from '../../toolkit/in-memory/in-memory-data-source';
import type { Filter } from '../../toolkit/query/filter';
import { Projection } from '../../toolkit/query/projection';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import type { RecordData } from '../../toolkit/record/record-utils';
import { createShopDataSource } from './shop-services';

/** What the last action execution received, for assertions. */
export interface ExecutionRecord {
  name: string;
  values: RecordData;
  selectedIds: unknown[];
}

const CARRIERS = ['UPS', 'DHL', 'FedEx'];

/**
 * `orders` with actions covering every result type and a dynamic form: `Mark as paid` (a form
 * with an `if` field, a Collection picker and a file), `Refund (partial)` (error), `Notify`
 * (webhook), `Open payments` (redirect), `Export invoice` (file), `Ship` (dynamic dropdown),
 * `Archive all` (global action).
 */
class OrdersWithActions extends InMemoryCollection {
  executions: ExecutionRecord[] = [];

  constructor(dataSource: InMemoryDataSource, definition: InMemoryCollectionDefinition) {
    super('orders', dataSource, definition);
    this.addAction('Mark as paid', { scope: 'Bulk', generateFile: false, staticForm: false });
    this.addAction('Refund (partial)', { scope: 'Single', generateFile: false, staticForm: true });
    this.addAction('Notify', { scope: 'Single', generateFile: false, staticForm: true });
    this.addAction('Open payments', { scope: 'Single', generateFile: false, staticForm: true });
    this.addAction('Export invoice', { scope: 'Single', generateFile: true, staticForm: true });
    this.addAction('Ship', { scope: 'Single', generateFile: false, staticForm: false });
    this.addAction('Archive all', { scope: 'Global', generateFile: false, staticForm: true });
    this.addSegments(['Unpaid']);
  }

  override async getForm(
    _caller: Caller,
    name: string,
    values: RecordData = {},
    _filter?: Filter,
    metas: GetFormMetas = {},
  ): Promise<ActionFormElement[]> {
    if (name === 'Mark as paid') {
      const fields: ActionFormElement[] = [
        {
          type: 'Enum',
          id: 'Payment method',
          label: 'Payment method',
          isRequired: true,
          enumValues: ['card', 'cash'],
          value: values['Payment method'] ?? null,
        },
        {
          type: 'Boolean',
          id: 'Notify customer',
          label: 'Notify customer',
          watchChanges: true,
          value: values['Notify customer'] ?? false,
        },
        {
          type: 'Collection',
          id: 'Assigned to',
          label: 'Assigned to',
          collectionName: 'customers',
          value: values['Assigned to'],
        },
        { type: 'File', id: 'Receipt', label: 'Receipt', value: values.Receipt ?? null },
      ];
      if (values['Notify customer'] === true || metas.includeHiddenFields) {
        fields.push({
          type: 'String',
          id: 'Message',
          label: 'Message',
          value: values.Message ?? 'Thanks!',
        });
      }
      return fields;
    }
    if (name === 'Ship') {
      const search = metas.searchField === 'carrier' ? (metas.searchValue ?? '').toLowerCase() : '';
      return [
        {
          type: 'String',
          id: 'carrier',
          label: 'Carrier',
          widget: 'Dropdown',
          search: 'dynamic',
          options: CARRIERS.filter((carrier) => carrier.toLowerCase().includes(search)).map(
            (value) => ({ value, label: value }),
          ),
          value: values.carrier ?? null,
        },
        { type: 'String', id: 'Note', label: 'Note', value: values.Note ?? null },
        { type: 'Layout', component: 'Separator' },
      ];
    }
    return [];
  }

  override async execute(
    caller: Caller,
    name: string,
    values: RecordData,
    filter?: Filter,
  ): Promise<ActionResult> {
    const selected = filter
      ? await this.list(caller, new PaginatedFilter(filter), new Projection('id'))
      : [];
    this.executions.push({ name, values, selectedIds: selected.map((record) => record.id) });
    switch (name) {
      case 'Mark as paid':
        return {
          type: 'Success',
          message: `${selected.length} orders marked as paid`,
          html: '<p>Done</p>',
          invalidated: new Set(['payments']),
        };
      case 'Refund (partial)':
        return {
          type: 'Error',
          message: 'Order has no payment method',
          html: '<strong>Fix it</strong>',
        };
      case 'Notify':
        return {
          type: 'Webhook',
          url: 'https://hooks.example.com/notify',
          method: 'POST',
          headers: { 'x-api-key': 'k' },
          body: { ids: selected.map((r) => r.id) },
        };
      case 'Open payments':
        return { type: 'Redirect', path: '/Shop/Production/Ops/data/payments/index' };
      case 'Export invoice':
        return {
          type: 'File',
          stream: Readable.from(['reference,total\n', 'SO-0101,120\n']),
          name: 'invoice.csv',
          mimeType: 'text/csv',
          responseHeaders: { 'X-Report-Id': 'r-77' },
        };
      default:
        return { type: 'Success', message: '', invalidated: new Set() };
    }
  }
}

/** The shop with actions on `orders`. */
export class ShopWithActions extends InMemoryDataSource {
  readonly orders: OrdersWithActions;

  constructor() {
    super();
    const shop = createShopDataSource();
    for (const collection of shop.collections) {
      if (collection.name === 'orders') continue;
      this.addCollection(collection);
    }
    const orders = shop.getCollection('orders');
    this.orders = new OrdersWithActions(this, {
      fields: Object.fromEntries(
        Object.entries(orders.schema.fields).map(([name, field]) => [name, field]),
      ) as InMemoryCollectionDefinition['fields'],
      records: orders.records,
    });
    this.addCollection(this.orders);
  }
}
