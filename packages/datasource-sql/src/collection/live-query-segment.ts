import {
  BusinessError,
  ConditionTreeFactory,
  ConditionTreeLeaf,
  ValidationError,
  type Caller,
  type DataSource,
  type Filter,
} from '@canopy/agent-core/toolkit';
import type { TableModel } from '../schema/table-model';

/**
 * Applies a filter's live-query segment (SQL returning the records' first primary key column):
 * runs it with bound context variables and intersects the filter with `pk IN (values)`. The
 * customizer's segment layer normally does this; a filter that reaches the collection directly
 * gets the same treatment rather than silently matching every record.
 */
export async function applyLiveQuerySegment<F extends Filter>(
  filter: F,
  model: TableModel,
  dataSource: DataSource,
  caller?: Caller,
): Promise<F> {
  const segment = filter.liveQuerySegment;
  if (!segment) return filter;
  const [primaryKey] = model.primaryKey;
  if (!primaryKey) {
    throw new ValidationError(
      `Cannot apply a live-query segment on '${model.name}': the collection has no primary key.`,
    );
  }
  let rows: Record<string, unknown>[];
  try {
    rows = await dataSource.executeNativeQuery(
      segment.connectionName,
      segment.query,
      segment.contextVariables ?? {},
      caller,
    );
  } catch (error) {
    throw new BusinessError(
      `An error occurred during the execution of the segment query - ${(error as Error).message}`,
      { cause: error },
    );
  }
  const ids = rows.map((row) => row[primaryKey]);
  const inSegment = new ConditionTreeLeaf(primaryKey, 'In', ids);
  return filter.override({
    conditionTree: ConditionTreeFactory.intersect(filter.conditionTree, inSegment),
    liveQuerySegment: null,
  }) as F;
}
