import { NotFoundError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { CompositeId } from '../toolkit/record/record-utils';
import type { OperationCaller, OperationContext } from './context';

/**
 * Renders a chart declared in code on the data source (agent-http-protocol §10.2); no permission
 * check beyond authentication (quirk 14). An unknown chart is not found.
 */
export async function renderDataSourceChart(
  context: OperationContext,
  who: OperationCaller,
  name: string,
  parameters: Record<string, string>,
): Promise<unknown> {
  const { dataSource } = context.services;
  if (!dataSource.schema.charts.includes(name)) {
    throw new NotFoundError(`Chart '${name}' does not exist on the data source`);
  }
  return dataSource.renderChart(who.caller, name, parameters);
}

/** Renders a chart declared in code on a collection, for one record (§10.2). */
export async function renderCollectionChart(
  who: OperationCaller,
  collection: Collection,
  name: string,
  parse: () => { recordId: CompositeId; parameters: Record<string, string> },
): Promise<unknown> {
  if (!collection.schema.charts.includes(name)) {
    throw new NotFoundError(`Chart '${name}' does not exist on '${collection.name}'`);
  }
  const { recordId, parameters } = parse();
  return collection.renderChart(who.caller, name, recordId, parameters);
}
