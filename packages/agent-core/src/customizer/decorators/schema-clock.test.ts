import { createInMemoryDataSource } from '../../toolkit/in-memory/in-memory-data-source';
import { DataSourceCustomizer } from '../data-source-customizer';
import { CollectionDecorator, SchemaClock, schemaVersionOf } from './collection-decorator';

function shop() {
  return createInMemoryDataSource({
    orders: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true },
        amount: { type: 'Column', columnType: 'Number' },
      },
      records: [{ id: 1, amount: 10 }],
    },
  });
}

describe('the schema clock', () => {
  it('is one per agent: a schema change in one leaves the caches of another alone', async () => {
    const first = new DataSourceCustomizer().addDataSource(shop());
    const second = new DataSourceCustomizer().addDataSource(shop());
    const one = (await first.getDataSource()).getCollection('orders') as CollectionDecorator;
    const two = (await second.getDataSource()).getCollection('orders') as CollectionDecorator;
    expect(one.dataSource.clock).toBeInstanceOf(SchemaClock);
    expect(one.dataSource.clock).not.toBe(two.dataSource.clock);

    const before = schemaVersionOf(two);
    one.markSchemaAsDirty();
    expect(schemaVersionOf(two)).toBe(before);
    expect(schemaVersionOf(one)).toBeGreaterThan(0);
  });

  it('is shared by every layer of one stack', async () => {
    const customizer = new DataSourceCustomizer().addDataSource(shop());
    let layer: CollectionDecorator = (await customizer.getDataSource()).getCollection(
      'orders',
    ) as CollectionDecorator;
    const clock = layer.dataSource.clock;
    let depth = 0;
    while (layer.childCollection instanceof CollectionDecorator) {
      layer = layer.childCollection;
      expect(layer.dataSource.clock).toBe(clock);
      depth += 1;
    }
    expect(depth).toBeGreaterThan(5);
  });

  it('sees a field added by a customization after the schema was read', async () => {
    const customizer = new DataSourceCustomizer().addDataSource(shop());
    customizer.customizeCollection('orders', (orders) =>
      orders.addField('double', {
        columnType: 'Number',
        dependencies: ['amount'],
        getValues: (records) => records.map((record) => (record.amount as number) * 2),
      }),
    );
    const orders = (await customizer.getDataSource()).getCollection('orders');
    expect(Object.keys(orders.schema.fields).sort()).toEqual(['amount', 'double', 'id']);
  });
});
