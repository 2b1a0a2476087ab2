import type { OperationCaller, OperationContext } from './context';
import { type CountResult, countIn } from './count';
import { buildFilter, type FilterParameters } from './filter';
import { asToMany, linkedTree, type RelationTarget } from './relation';
import type { ParsedRequest } from './request';

export interface CountRelatedRequest {
  readonly filter: FilterParameters;
}

/** The number of records linked to a parent through a to-many relation (§8.9): needs `browse`. */
export async function countRelated(
  context: OperationContext,
  who: OperationCaller,
  relation: RelationTarget,
  parse: ParsedRequest<CountRelatedRequest>,
): Promise<CountResult> {
  const field = asToMany(relation);
  const { target } = relation;
  await context.permissions.assertCollectionRight(who.claims, target.name, 'browse');
  const filter = await buildFilter(context, who, target, parse().filter, [
    await linkedTree(context, who, relation, field),
  ]);
  return countIn(who, target, filter);
}
