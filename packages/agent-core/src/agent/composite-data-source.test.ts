import type { Caller } from '../toolkit/caller';
import { BaseDataSource } from '../toolkit/base/base-data-source';
import { isCanopyError } from '../toolkit/errors/canopy-error';
import { NamesDataSource } from '../schema/shop-fixture';
import { CompositeDataSource } from './composite-data-source';

const caller = { id: 1, timezone: 'UTC' } as Caller;

class ChartSource extends BaseDataSource {
  closed = false;

  constructor(
    readonly chart: string,
    connection: string,
  ) {
    super();
    this.schema.charts.push(chart);
    this.addNativeQueryConnection(connection, {});
  }

  override async renderChart(_caller: Caller, name: string) {
    return { countCurrent: name.length };
  }

  override async executeNativeQuery(connectionName: string) {
    return [{ connectionName }];
  }

  async close() {
    this.closed = true;
  }
}

describe('CompositeDataSource', () => {
  it('serves collections, charts and native queries of each data source', async () => {
    const composite = new CompositeDataSource([
      new NamesDataSource(['books']),
      new ChartSource('sales', 'main'),
      new ChartSource('growth', 'replica'),
    ]);
    expect(composite.collections.map((collection) => collection.name)).toEqual(['books']);
    expect(composite.getCollection('books').name).toBe('books');
    expect(composite.schema.charts).toEqual(['sales', 'growth']);
    expect(Object.keys(composite.nativeQueryConnections)).toEqual(['main', 'replica']);
    expect(await composite.renderChart(caller, 'growth')).toEqual({ countCurrent: 6 });
    expect(await composite.executeNativeQuery('replica', 'SELECT 1')).toEqual([
      { connectionName: 'replica' },
    ]);
  });

  it('names what is unknown and what collides', async () => {
    const composite = new CompositeDataSource([new NamesDataSource(['books'])]);
    expect(() => composite.getCollection('authors')).toThrow(
      "Collection 'authors' not found. Available collections are: ['books'].",
    );
    await expect(composite.renderChart(caller, 'x')).rejects.toThrow("Chart 'x' is not defined");
    await expect(composite.executeNativeQuery('main', 'SELECT 1')).rejects.toThrow(
      "Native query connection 'main' is unknown. Known connections: none.",
    );
    let error: unknown;
    try {
      new CompositeDataSource([new ChartSource('sales', 'a'), new ChartSource('sales', 'b')]);
    } catch (caught) {
      error = caught;
    }
    expect(isCanopyError(error, { code: 'DUPLICATE_NAME' })).toBe(true);
    expect((error as Error).message).toBe("Chart 'sales' is already defined in datasource.");
  });

  it('closes every data source', async () => {
    const sources = [new ChartSource('a', 'a'), new ChartSource('b', 'b')];
    await new CompositeDataSource(sources).close();
    expect(sources.every((source) => source.closed)).toBe(true);
  });
});
