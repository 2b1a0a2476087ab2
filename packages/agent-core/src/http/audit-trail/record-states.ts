/**
 * Parts of the record history routes (agent-http-protocol §13.1) that work on many records at
 * once: which of some records the caller's scope shows (one query per collection, not one per
 * record), and Canopy's batch `POST /_audit-trail/{c}/states` — several records at one time.
 */
import type { SessionClaims } from '../../operations/session-claims';
import type { PermissionChecker } from '../../operations/permissions/permission-checker';
import { getCollectionPlan } from '../../operations/records/collection-plan';
import { packRecordId, unpackRecordId } from '../../operations/records/record-id';
import type { Caller } from '../../toolkit/caller';
import { NotFoundError, ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { Page } from '../../toolkit/query/page';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';
import { getPrimaryKeys } from '../../toolkit/schema/schema-utils';
import type { RecordStateRows } from '../../audit-trail/audit-store';

/** Ids a `states` request may name. */
export const MAX_STATE_IDS = 100;

/** Ids one scope query names (a correlation may hold thousands of records). */
const SCOPE_CHUNK = 1000;

/**
 * Which of some packed ids are records the caller reads within `scope` now: one list query
 * (per {@link SCOPE_CHUNK} ids). An id that cannot be a record of the collection is not one.
 */
export async function idsInScope(
  collection: Collection,
  caller: Caller,
  /** `null`: the ids of records that exist at all. */
  scope: ConditionTree | null,
  packedIds: readonly string[],
): Promise<Set<string>> {
  const plan = getCollectionPlan(collection);
  const pks = getPrimaryKeys(collection.schema);
  const ids: CompositeId[] = [];
  for (const packed of new Set(packedIds)) {
    try {
      ids.push(unpackRecordId(collection, packed));
    } catch {
      // Not an id of this collection: no record to show.
    }
  }
  const found = new Set<string>();
  for (let start = 0; start < ids.length; start += SCOPE_CHUNK) {
    const chunk = ids.slice(start, start + SCOPE_CHUNK);
    const records = await collection.list(
      caller,
      new PaginatedFilter({
        conditionTree: ConditionTreeFactory.intersect(
          scope,
          ConditionTreeFactory.matchIds(collection.schema, chunk),
        ),
        page: new Page(0, chunk.length),
      }),
      new Projection(...pks),
    );
    for (const record of records) found.add(packRecordId(plan, record));
  }
  return found;
}

/**
 * A predicate telling which records of a collection the caller may read the history of: none
 * without the read right, all without a scope, else those its scope shows now and those that no
 * longer exist (one query, and one more for the ids the scope hides).
 */
export async function readableRecords(
  permissions: PermissionChecker,
  claims: SessionClaims,
  caller: Caller,
  collection: Collection,
  packedIds: readonly string[],
): Promise<(recordId: string | null) => boolean> {
  try {
    await permissions.assertCollectionRight(claims, collection.name, 'read');
  } catch {
    return () => false;
  }
  const scope = await permissions.getScope(claims, collection);
  if (!scope) return () => true;
  const visible = await idsInScope(collection, caller, scope, packedIds);
  const hidden = [...new Set(packedIds)].filter((id) => !visible.has(id));
  // A record gone entirely has nothing to check a scope on: its history is for anyone who may
  // read the collection (agent-http-protocol §13.1). One more query, only when some are hidden.
  const existing = hidden.length
    ? await idsInScope(collection, caller, null, hidden)
    : new Set<string>();
  return (recordId) => recordId === null || visible.has(recordId) || !existing.has(recordId);
}

/**
 * The ids of a `states` body: a list of at most {@link MAX_STATE_IDS} packed ids (strings, or
 * numbers), each valid for the collection; duplicates once. Ids no record can have (an integer
 * beyond the column's range) are dropped: they have no state to answer.
 *
 * @throws ValidationError naming what is wrong.
 */
export function readStateIds(collection: Collection, raw: unknown): string[] {
  if (!Array.isArray(raw)) {
    throw new ValidationError('"ids" must be a list of record ids (such as ["1", "2"])');
  }
  if (raw.length > MAX_STATE_IDS) {
    throw new ValidationError(
      `At most ${MAX_STATE_IDS} ids per request, got ${raw.length}: ask for a page at a time`,
    );
  }
  const ids: string[] = [];
  for (const id of raw) {
    if ((typeof id !== 'string' && typeof id !== 'number') || id === '') {
      throw new ValidationError(
        `"ids" must hold record ids (strings such as "12" or "12|EU"), got ${JSON.stringify(id)}`,
      );
    }
    const packed = String(id);
    try {
      unpackRecordId(collection, packed);
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    if (!ids.includes(packed)) ids.push(packed);
  }
  return ids;
}

/** One record of a `states` answer. */
export interface RecordState {
  id: string;
  /** The record existed at the time asked (per its history). */
  existed: boolean;
  /** Its values then differ from its last recorded ones (or it was created or deleted since). */
  changedSince: boolean;
  /** The fields whose values then differ from the last recorded ones. */
  changedFields: string[];
  /** Its audited values then; `null` when it did not exist, or when its history has no row. */
  values: RecordData | null;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * A record's state at a time from the rows {@link AuditTable.statesAt} found (`undefined`: none),
 * `visible` giving the values as the caller sees them (exposed names, hidden fields left out).
 * With no row at or before the time, the first row after tells: a create means the record did not
 * exist yet, an update or delete that it did, with the values that row found.
 */
export function recordState(
  id: string,
  rows: RecordStateRows | undefined,
  visible: (values: RecordData | null) => RecordData | null,
): RecordState {
  if (!rows || (!rows.then && !rows.next)) {
    return { id, existed: true, changedSince: false, changedFields: [], values: null };
  }
  let existed: boolean;
  let values: RecordData | null;
  if (rows.then) {
    existed = rows.then.operation !== 'delete';
    values = existed ? visible(rows.then.after) : null;
  } else {
    const next = rows.next as NonNullable<RecordStateRows['next']>;
    existed = next.operation !== 'create';
    values = existed ? visible(next.before) : null;
  }
  const latest = rows.latest;
  const now = latest && latest.operation !== 'delete' ? visible(latest.after) : null;
  const fields = [...new Set([...Object.keys(values ?? {}), ...Object.keys(now ?? {})])];
  const changedFields =
    values && now ? fields.filter((field) => !sameValue(values?.[field], now[field])) : [];
  const changedSince = existed !== (now !== null) || changedFields.length > 0;
  return { id, existed, changedSince, changedFields, values };
}
