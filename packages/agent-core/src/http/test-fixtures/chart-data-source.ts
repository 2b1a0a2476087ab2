import { DateTime } from 'luxon';

import type { Caller } from '../../toolkit/caller';
import type { Chart } from '../../toolkit/chart/chart';
import { InMemoryCollection } from '../../toolkit/in-memory/in-memory-collection';
import { InMemoryDataSource } from '../../toolkit/in-memory/in-memory-data-source';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';

const number = { type: 'Column', columnType: 'Number' } as const;

/** Sales dated relative to now (UTC), so period comparisons are deterministic. */
function sales(): RecordData[] {
  const today = DateTime.utc().startOf('day');
  const at = (days: number) => today.minus({ days }).plus({ hours: 12 }).toISO();
  return [
    { id: 1, amount: 10, soldAt: at(0), sellerId: 1, channel: 'web' },
    { id: 2, amount: 20, soldAt: at(0), sellerId: 2, channel: 'shop' },
    { id: 3, amount: 5, soldAt: at(1), sellerId: 1, channel: 'web' },
    { id: 4, amount: 7, soldAt: '2025-01-15T10:00:00.000Z', sellerId: 1, channel: 'web' },
    { id: 5, amount: 9, soldAt: '2025-03-02T10:00:00.000Z', sellerId: 2, channel: 'web' },
  ];
}

class Sellers extends InMemoryCollection {
  constructor(dataSource: ChartDataSource) {
    super('sellers', dataSource, {
      fields: {
        id: { ...number, isPrimaryKey: true },
        name: { type: 'Column', columnType: 'String' },
        sales: {
          type: 'OneToMany',
          foreignCollection: 'sales',
          originKey: 'sellerId',
          originKeyTarget: 'id',
        },
      },
      records: [
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Bob' },
      ],
    });
    this.addChart('salesOfSeller');
  }

  override async renderChart(
    _caller: Caller,
    name: string,
    recordId: CompositeId,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    return { countCurrent: Number(recordId[0]) * 100, name, parameters };
  }
}

/** A data source for chart tests: sellers ← sales, a data-source chart and a native connection. */
export class ChartDataSource extends InMemoryDataSource {
  lastNativeQuery: {
    connectionName: string;
    query: string;
    variables?: Record<string, unknown>;
  } | null = null;

  constructor() {
    super({
      sales: {
        fields: {
          id: { ...number, isPrimaryKey: true },
          amount: number,
          soldAt: { type: 'Column', columnType: 'Date' },
          channel: { type: 'Column', columnType: 'String' },
          sellerId: number,
          seller: {
            type: 'ManyToOne',
            foreignCollection: 'sellers',
            foreignKey: 'sellerId',
            foreignKeyTarget: 'id',
          },
        },
        records: sales(),
      },
    });
    this.addCollection(new Sellers(this));
    this.schema.charts.push('revenue');
    this.addNativeQueryConnection('main', {});
  }

  override async renderChart(
    _caller: Caller,
    name: string,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    return {
      labels: ['Jan 25'],
      values: [{ key: name, values: [Number(parameters?.factor ?? 1)] }],
    };
  }

  override async executeNativeQuery(
    connectionName: string,
    query = '',
    variables?: Record<string, unknown>,
  ): Promise<RecordData[]> {
    this.lastNativeQuery = { connectionName, query, variables };
    if (query.includes('broken')) throw new Error('relation "broken" does not exist');
    if (query.includes('AS x')) return [{ x: 1, y: 2 }];
    if (query.includes('empty')) return [];
    if (query.startsWith('SELECT 42')) return [{ value: 42, previous: 40, objective: 50 }];
    return [
      { key: 'web', value: 3 },
      { key: 'shop', value: 1 },
    ];
  }
}
