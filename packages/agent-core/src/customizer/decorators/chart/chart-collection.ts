import type { Caller } from '../../../toolkit/caller';
import type { Chart } from '../../../toolkit/chart/chart';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type { CompositeId } from '../../../toolkit/record/record-utils';
import type { CollectionSchema, DataSourceSchema } from '../../../toolkit/schema/collection-schema';
import { CollectionChartContext, DataSourceChartContext } from '../../chart/chart-context';
import { ChartResultBuilder } from '../../chart/chart-result-builder';
import { CollectionDecorator } from '../collection-decorator';
import { DataSourceDecorator } from '../data-source-decorator';

/** A collection chart: renders one record's chart. */
export type CollectionChartDefinition = (
  context: CollectionChartContext,
  resultBuilder: ChartResultBuilder,
) => Promise<Chart> | Chart;

/** A data-source chart. */
export type DataSourceChartDefinition = (
  context: DataSourceChartContext,
  resultBuilder: ChartResultBuilder,
) => Promise<Chart> | Chart;

/** Layer 10 — collection charts. */
export class ChartCollectionDecorator extends CollectionDecorator {
  private readonly charts = new Map<string, CollectionChartDefinition>();

  addChart(name: string, definition: CollectionChartDefinition): void {
    if (this.schema.charts.includes(name)) {
      throw new ValidationError(`Chart '${name}' already exists on collection '${this.name}'.`);
    }
    this.charts.set(name, definition);
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    return { ...childSchema, charts: [...childSchema.charts, ...this.charts.keys()] };
  }

  override async renderChart(
    caller: Caller,
    name: string,
    recordId: CompositeId,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    const chart = this.charts.get(name);
    if (!chart) return super.renderChart(caller, name, recordId, parameters);
    return chart(
      new CollectionChartContext(this, caller, recordId, parameters),
      new ChartResultBuilder(caller.timezone),
    );
  }
}

/** Layer 10 — data-source charts. */
export class ChartDataSourceDecorator extends DataSourceDecorator<ChartCollectionDecorator> {
  private readonly charts = new Map<string, DataSourceChartDefinition>();

  constructor(child: ConstructorParameters<typeof DataSourceDecorator>[0]) {
    super(child, ChartCollectionDecorator);
  }

  addChart(name: string, definition: DataSourceChartDefinition): void {
    if (this.charts.has(name) || this.childDataSource.schema.charts.includes(name)) {
      throw new ValidationError(`Chart '${name}' already exists.`);
    }
    this.charts.set(name, definition);
  }

  override get schema(): DataSourceSchema {
    const childCharts = this.childDataSource.schema.charts;
    const duplicate = childCharts.find((name) => this.charts.has(name));
    if (duplicate) throw new ValidationError(`Chart '${duplicate}' is defined twice.`);
    return { ...this.childDataSource.schema, charts: [...childCharts, ...this.charts.keys()] };
  }

  override async renderChart(
    caller: Caller,
    name: string,
    parameters?: Record<string, unknown>,
  ): Promise<Chart> {
    const chart = this.charts.get(name);
    if (!chart) return super.renderChart(caller, name, parameters);
    return chart(
      new DataSourceChartContext(this, caller, parameters),
      new ChartResultBuilder(caller.timezone),
    );
  }
}
