import { NotFoundError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { Projection } from '../toolkit/query/projection';
import type { CompositeId, RecordData } from '../toolkit/record/record-utils';
import { reportActivity } from './activity-log';
import type { OperationCaller, OperationContext } from './context';
import { readOne } from './read-one';
import type { ParsedRequest } from './request';

export interface GetRequest {
  readonly id: CompositeId;
  /** The id as the caller sent it (packed), for the activity log. */
  readonly packedId: string;
  readonly projection: Projection;
}

/** One record within the caller's scope (agent-http-protocol §8.3): needs `read`; not found if none. */
export async function getRecord(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<GetRequest>,
): Promise<RecordData> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'read');
  const request = parse();
  const record = await readOne(context, who, collection, request.id, request.projection);
  if (!record) throw new NotFoundError();
  reportActivity(context, who, 'read', collection.name, [request.packedId]);
  return record;
}
