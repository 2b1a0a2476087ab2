import type { Page } from '../toolkit/query/page';
import type { Projection } from '../toolkit/query/projection';
import type { Sort } from '../toolkit/query/sort';
import { reportActivity } from './activity-log';
import type { OperationCaller, OperationContext } from './context';
import { type ExportReader, readExport } from './csv';
import { buildFilter, type FilterParameters } from './filter';
import { type ListResult, paginated } from './list';
import { getCollectionPlan } from './records/collection-plan';
import { asToMany, linkedTree, type RelationTarget } from './relation';
import type { ParsedRequest } from './request';

export interface ListRelatedRequest {
  readonly filter: FilterParameters;
  /** The id of the parent as the caller sent it, for the activity log. */
  readonly packedParentId: string;
}

export interface ListRelatedPage {
  readonly projection: Projection;
  readonly sort: Sort | null;
  readonly page: Page;
}

/**
 * A page of the records linked to a parent through a to-many relation (agent-http-protocol §8.8):
 * needs `browse` on the target. The page is parsed (`parsePage`) after the filter is built; without
 * a sort, records come by primary key.
 */
export async function listRelated(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  parse: ParsedRequest<ListRelatedRequest>,
  parsePage: ParsedRequest<ListRelatedPage>,
): Promise<ListResult> {
  const field = asToMany(relation);
  const { target } = relation;
  await context.permissions.assertCollectionRight(who.claims, target.name, 'browse');
  const request = parse();
  const filter = await buildFilter(context, who, target, request.filter, [
    await linkedTree(context, who, relation, field),
  ]);
  reportActivity(context, who, 'listRelatedData', target.name, [request.packedParentId]);
  const { sort, page, projection } = parsePage();
  const order = sort ?? getCollectionPlan(target).defaultSort;
  const records = await target.list(who.caller, paginated(filter, order, page), projection);
  return { records, filter };
}

/** The CSV export of the records linked to a parent (§8.14): needs `browse` and `export`. */
export async function exportRelated(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  parse: ParsedRequest<ListRelatedRequest>,
): Promise<ExportReader> {
  const field = asToMany(relation);
  const { target } = relation;
  await context.permissions.assertCollectionRight(who.claims, target.name, 'browse');
  await context.permissions.assertCollectionRight(who.claims, target.name, 'export');
  const request = parse();
  const filter = await buildFilter(context, who, target, request.filter, [
    await linkedTree(context, who, relation, field),
  ]);
  reportActivity(context, who, 'export', target.name, [request.packedParentId]);
  return readExport(who, target, filter);
}
