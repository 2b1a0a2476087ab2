import type { ActionFormElement } from '../toolkit/action/action-form';
import type { Caller } from '../toolkit/caller';
import { BaseCollection } from '../toolkit/base/base-collection';
import { BaseDataSource } from '../toolkit/base/base-data-source';
import type { Collection } from '../toolkit/interfaces/collection';
import type { RecordData } from '../toolkit/record/record-utils';
import type { ColumnSchema } from '../toolkit/schema/field-schema';

/**
 * A small two-collection shop used by the schema and lifecycle tests: customers ↔ orders, an
 * action with a static form, one with a dynamic form, a segment and validation rules. Reads
 * return the stored rows as they are (these tests never filter).
 */
export class ShopDataSource extends BaseDataSource {
  closed = false;

  constructor(options: { extraOrderField?: string } = {}) {
    super();
    this.addCollection(new CustomersCollection(this));
    this.addCollection(new OrdersCollection(this, options.extraOrderField));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

const number = (extra: Partial<ColumnSchema> = {}): ColumnSchema => ({
  type: 'Column',
  columnType: 'Number',
  filterOperators: new Set(['Equal', 'In']),
  isSortable: true,
  ...extra,
});

abstract class StoredCollection extends BaseCollection {
  protected rows: RecordData[] = [];

  async list(): Promise<RecordData[]> {
    return this.rows.map((row) => ({ ...row }));
  }

  async create(_caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    this.rows.push(...data);
    return data;
  }

  async update(): Promise<void> {}

  async delete(): Promise<void> {}

  async aggregate() {
    return [{ value: this.rows.length, group: {} }];
  }
}

class CustomersCollection extends StoredCollection {
  constructor(dataSource: BaseDataSource<Collection>) {
    super('customers', dataSource);
    this.addFields({
      id: number({ isPrimaryKey: true, isReadOnly: true }),
      email: {
        type: 'Column',
        columnType: 'String',
        filterOperators: new Set(['Equal', 'Contains']),
        isSortable: true,
        validation: [{ operator: 'Present' }],
      },
      orders: {
        type: 'OneToMany',
        foreignCollection: 'orders',
        originKey: 'customer_id',
        originKeyTarget: 'id',
      },
    });
    this.enableCount();
    this.enableSearch();
    this.rows = [{ id: 1, email: 'ada@example.com' }];
  }
}

class OrdersCollection extends StoredCollection {
  constructor(dataSource: BaseDataSource<Collection>, extraField?: string) {
    super('orders', dataSource);
    this.addFields({
      id: number({ isPrimaryKey: true, isReadOnly: true }),
      amount: number({ validation: [{ operator: 'GreaterThan', value: 0 }] }),
      customer_id: number(),
      customer: {
        type: 'ManyToOne',
        foreignCollection: 'customers',
        foreignKey: 'customer_id',
        foreignKeyTarget: 'id',
      },
      status: {
        type: 'Column',
        columnType: 'Enum',
        enumValues: ['shipped', 'pending'],
        defaultValue: 'pending',
        filterOperators: new Set(['Equal']),
        isSortable: true,
      },
    });
    if (extraField)
      this.addField(extraField, {
        type: 'Column',
        columnType: 'String',
        filterOperators: new Set(),
      });
    this.addAction('Refund order', {
      scope: 'Single',
      generateFile: false,
      staticForm: true,
      description: 'Refunds the full amount',
    });
    this.addAction('Export invoices', { scope: 'Bulk', generateFile: true, staticForm: false });
    this.addSegments(['Late']);
    this.enableCount();
    this.enableSearch();
    this.rows = [{ id: 10, amount: 25, customer_id: 1, status: 'pending' }];
  }

  override async getForm(_caller: Caller, name: string): Promise<ActionFormElement[]> {
    if (name !== 'Refund order') return [];
    return [
      {
        type: 'Enum',
        id: 'Reason',
        label: 'Reason',
        isRequired: true,
        enumValues: ['damaged', 'late', 'other'],
        value: 'late',
      },
      {
        type: 'String',
        id: 'Comment',
        label: 'Comment',
        widget: 'TextArea',
        rows: 4,
        watchChanges: true,
      },
    ];
  }
}

/** A data source of collections that only have an `id`, for tests about names and order. */
export class NamesDataSource extends BaseDataSource {
  constructor(names: string[]) {
    super();
    for (const name of names) this.addCollection(new IdOnlyCollection(name, this));
  }
}

class IdOnlyCollection extends StoredCollection {
  constructor(name: string, dataSource: BaseDataSource<Collection>) {
    super(name, dataSource);
    this.addField('id', number({ isPrimaryKey: true }));
  }
}
