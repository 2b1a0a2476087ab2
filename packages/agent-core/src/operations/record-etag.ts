import { hash } from 'node:crypto';
import { PreconditionFailedError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import { Projection } from '../toolkit/query/projection';
import type { CompositeId, RecordData } from '../toolkit/record/record-utils';
import type { OperationCaller, OperationContext } from './context';
import { readOne } from './read-one';

/**
 * Strong entity tags of records (agent-http-protocol §8.3, §8.5): a SHA-1 of a canonical JSON of
 * the record's columns (relations left out), so that the tag of `GET /:c/:id` and the one the
 * `PUT` recomputes agree whatever relations either read.
 */

const COLUMNS = new WeakMap<Collection, string[]>();

/** The column names of `collection`, sorted (computed once per collection). */
function columnsOf(collection: Collection): string[] {
  let columns = COLUMNS.get(collection);
  if (!columns) {
    columns = Object.entries(collection.schema.fields)
      .filter(([, field]) => field.type === 'Column')
      .map(([name]) => name)
      .sort();
    COLUMNS.set(collection, columns);
  }
  return columns;
}

/**
 * A copy of `value` with every object's keys sorted and bigints as text, so that equal values
 * always give the same JSON text (`JSON.stringify` then writes it without calling back into
 * JavaScript per value, as a replacer would). A value with `toJSON` (a date, a buffer) is replaced
 * by what it gives, as `JSON.stringify` would.
 */
function canonical(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return canonical(toJson.call(value));
  if (Array.isArray(value)) return value.map(canonical);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = canonical((value as Record<string, unknown>)[key]);
  }
  return sorted;
}

/** {@link coversColumns} per collection and projection (routes reuse their projections). */
const COVERS = new WeakMap<Collection, WeakMap<Projection, boolean>>();

/** Whether `projection` reads every column of `collection` (a GET that can carry a tag). */
export function coversColumns(collection: Collection, projection: Projection): boolean {
  let byProjection = COVERS.get(collection);
  if (!byProjection) {
    byProjection = new WeakMap();
    COVERS.set(collection, byProjection);
  }
  let covers = byProjection.get(projection);
  if (covers === undefined) {
    const read = new Set(projection);
    covers = columnsOf(collection).every((column) => read.has(column));
    byProjection.set(projection, covers);
  }
  return covers;
}

/** The strong ETag of `record` (its columns), quoted as the header carries it. */
export function recordEtag(collection: Collection, record: RecordData): string {
  const values = columnsOf(collection).map((column) => canonical(record[column] ?? null));
  return `"${hash('sha1', JSON.stringify(values), 'base64url')}"`;
}

/** Whether an `If-Match` value (`*`, or a list of quoted tags) matches `etag` (strong comparison). */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Refuses an update sent with `If-Match` when the record changed since the caller read it
 * (`412`, agent-http-protocol §8.5): reads the record's columns within the caller's scope; the
 * error carries the current values and their tag, so that a client can merge and send again.
 * Not found (or out of scope): a not-found error, as without the header.
 */
export async function assertUnchanged(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  id: CompositeId,
  ifMatch: string,
): Promise<void> {
  const current = await readOne(
    context,
    who,
    collection,
    id,
    new Projection(...columnsOf(collection)),
  );
  if (!current) throw new PreconditionFailedError('The record no longer exists', {});
  const etag = recordEtag(collection, current);
  if (ifMatchAccepts(ifMatch, etag)) return;
  throw new PreconditionFailedError('The record changed since you read it', {
    etag,
    current,
  });
}
