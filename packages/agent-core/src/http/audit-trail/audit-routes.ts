import { DateTime } from 'luxon';
import type { HistoryEntry } from '@canopy/platform-protocol';

import { getSessionClaims } from '../auth/authenticate';
import type { SessionClaims } from '../../operations/session-claims';
import { NotFoundError } from '../../toolkit/errors/canopy-error';
import type { TableRouteHandler, RouteTable } from '../pipeline/route-table';
import { sendJson } from '../pipeline/send-json';
import type { HttpRequest } from '../request/node-http';
import { PermissionChecker } from '../../operations/permissions/permission-checker';
import { unpackRecordId } from '../../operations/records/record-id';
import type { AgentServices } from '../../platform/agent-services';
import { type Caller, callerIdentity } from '../../toolkit/caller';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { Page } from '../../toolkit/query/page';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import type { RecordData } from '../../toolkit/record/record-utils';
import { getPrimaryKeys } from '../../toolkit/schema/schema-utils';
import type { AuditRecorder } from '../../audit-trail/audit-recorder';
import type { StoredAuditRow } from '../../audit-trail/audit-store';
import { idsInScope, readableRecords, readStateIds, recordState } from './record-states';

const DEFAULT_HISTORY_PAGE = 20;
const MAX_HISTORY_PAGE = 100;

/** A history entry as the routes answer it (agent-http-protocol §13.1): always written. */
export type AuditEntry = HistoryEntry<RecordData> & { status: 'done' };

/** A page parameter: an integer in range, else the default (the protocol falls back). */
function pageParameter(value: string | null, fallback: number, max: number): number {
  const number = value !== null && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) && number >= 1 && number <= max ? number : fallback;
}

/** `startDate`/`endDate`: a date, a local date-time in `timezone`, or an instant with offset. */
function parseBound(
  name: string,
  value: string | null,
  timezone: string,
  end: boolean,
): Date | null {
  if (value === null || value === '') return null;
  const local = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?$/.test(value);
  const withOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(
    value,
  );
  let date: DateTime | null = null;
  if (local) {
    date = DateTime.fromISO(value, { zone: timezone });
    if (end && value.length === 10) date = date.endOf('day');
  } else if (withOffset) {
    date = DateTime.fromISO(value, { setZone: true });
  }
  if (!date || !date.isValid) {
    throw new ValidationError(
      `Invalid ${name} '${value}': use YYYY-MM-DD, YYYY-MM-DDTHH:mm[:ss] (in the request's timezone) or an ISO date-time with offset.`,
    );
  }
  return date.toJSDate();
}

function callerOf(claims: SessionClaims): Caller {
  return { ...callerIdentity(claims), timezone: 'UTC' };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Adds the record history routes of agent-http-protocol §13.1 to the agent's route table (they
 * run after its CORS, session check, IP whitelist and body stages):
 *
 * - `GET <prefix>/_audit-trail/:c/:id` — a record's entries (paged, filtered);
 * - `GET <prefix>/_audit-trail/:c/:id/state?at=<date>` — its values at a time;
 * - `GET <prefix>/_audit-trail/correlation/:key?collection=&recordId=` — one request's entries;
 * - `GET|POST <prefix>/_audit-trail/correlations` — several requests' entries;
 * - `POST <prefix>/_audit-trail/:c/states` — several records at one time (Canopy's addition;
 *   records outside the caller's scope are left out of its answer).
 *
 * Each needs the `read` right on the collection and the record visible in the caller's scope
 * (`404 Record does not exists` otherwise).
 */
export function addAuditTrailRoutes(
  routes: RouteTable,
  services: AgentServices,
  recorder: AuditRecorder,
  layer: DataSource,
): void {
  const permissions = new PermissionChecker(services.permissions);
  const published = services.dataSource;

  const findPublished = (name: string): Collection => {
    const collection = published.collections.find((candidate) => candidate.name === name);
    if (!collection) throw new NotFoundError(`Collection '${name}' does not exist`);
    return collection;
  };

  /** Field names as users see them, fields they cannot see dropped. */
  const visible = (collectionName: string, values: RecordData | null): RecordData | null => {
    if (!values) return null;
    const top = published.collections.find((candidate) => candidate.name === collectionName);
    const result: RecordData = {};
    for (const [field, value] of Object.entries(values)) {
      const exposed = recorder.exposedName(collectionName, field);
      if (top?.schema.fields[exposed]) result[exposed] = value;
    }
    return result;
  };

  /** An entry; an update shows only the fields it changed. */
  const present = (row: StoredAuditRow): AuditEntry => {
    let previousValues = visible(row.collection, row.before);
    let newValues = visible(row.collection, row.after);
    if (row.operation === 'update' && previousValues && newValues) {
      const changed = new Set(
        (row.changedFields ?? Object.keys(newValues)).map((field) =>
          recorder.exposedName(row.collection, field),
        ),
      );
      if (!row.changedFields) {
        for (const field of changed) {
          if (sameValue(previousValues[field], newValues[field])) changed.delete(field);
        }
      }
      const keep = (values: RecordData) =>
        Object.fromEntries(Object.entries(values).filter(([field]) => changed.has(field)));
      previousValues = keep(previousValues);
      newValues = keep(newValues);
    }
    return {
      id: row.id,
      timestamp: row.occurredAt.toISOString(),
      operation: row.operation,
      collection: row.collection,
      recordId: row.recordId,
      userId: row.callerId,
      userFirstName: row.callerFirstName,
      userLastName: row.callerLastName,
      userEmail: row.callerEmail,
      actionName: row.actionName,
      correlationKey: row.correlationId,
      correlationKind: row.correlationKind,
      previousValues,
      newValues,
      status: 'done',
    };
  };

  /** Read right, and the record visible within the caller's scope now. */
  const assertCanRead = async (
    claims: SessionClaims,
    collection: Collection,
    packedId: string,
  ): Promise<void> => {
    await permissions.assertCollectionRight(claims, collection.name, 'read');
    const scope = await permissions.getScope(claims, collection);
    if (!scope) return;
    const id = unpackRecordId(collection, packedId);
    const [found] = await collection.list(
      callerOf(claims),
      new PaginatedFilter({
        conditionTree: ConditionTreeFactory.intersect(
          scope,
          ConditionTreeFactory.matchIds(collection.schema, [id]),
        ),
        page: new Page(0, 1),
      }),
      new Projection(...getPrimaryKeys(collection.schema)),
    );
    if (!found) throw new NotFoundError('Record does not exists');
  };

  /** The checked record of a request, and the database of its history. */
  const openRecord = async (claims: SessionClaims, collectionName: unknown, recordId: unknown) => {
    if (typeof collectionName !== 'string' || collectionName === '') {
      throw new ValidationError('Missing collection');
    }
    if ((typeof recordId !== 'string' && typeof recordId !== 'number') || recordId === '') {
      throw new ValidationError('Missing recordId');
    }
    const collection = findPublished(collectionName);
    const packed = String(recordId);
    unpackRecordId(collection, packed);
    await assertCanRead(claims, collection, packed);
    const database = recorder.databaseOf(layer.getCollection(collection.name));
    if (!database) throw new NotFoundError(`No history for '${collection.name}'`);
    return { collection, recordId: packed, database };
  };

  const queryOf = (request: HttpRequest) =>
    new URL(request.originalUrl ?? request.url ?? '/', 'http://agent').searchParams;

  const correlationEntries = async (keys: readonly string[]) => {
    if (keys.some((key) => key.length > 64)) {
      throw new ValidationError('A correlation key has at most 64 characters.');
    }
    const rows = (
      await Promise.all(
        recorder.databases(layer).map((database) => recorder.table.correlation(database, keys)),
      )
    )
      .flat()
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id);
    return rows;
  };

  /**
   * The entries of some correlation keys the caller may read: the read right and the scope are
   * checked once per collection, for all its entries' records together.
   */
  const readableEntries = async (claims: SessionClaims, rows: StoredAuditRow[]) => {
    const readable = new Map<string, (recordId: string | null) => boolean>();
    for (const name of new Set(rows.map((row) => row.collection))) {
      const collection = published.collections.find((candidate) => candidate.name === name);
      const ids = rows
        .filter((row) => row.collection === name && row.recordId !== null)
        .map((row) => row.recordId as string);
      readable.set(
        name,
        collection
          ? await readableRecords(permissions, claims, callerOf(claims), collection, ids)
          : () => false,
      );
    }
    // Entries of records the caller may not read are left out.
    return rows
      .filter((row) => readable.get(row.collection)?.(row.recordId) === true)
      .map((row) => present(row));
  };

  routes.addFeature('GET', '/_audit-trail/correlation/:key', async (request, response, [key]) => {
    const claims = getSessionClaims(request);
    const query = queryOf(request);
    await openRecord(claims, query.get('collection'), query.get('recordId'));
    const rows = await correlationEntries([String(key)]);
    sendJson(response, { data: await readableEntries(claims, rows) });
  });

  const correlations: TableRouteHandler = async (request, response) => {
    const claims = getSessionClaims(request);
    const query = queryOf(request);
    const body = (request.method === 'POST' ? (request as { body?: unknown }).body : {}) as
      Record<string, unknown> | undefined;
    const collection = body?.collection ?? query.get('collection');
    const recordId = body?.recordId ?? query.get('recordId');
    await openRecord(claims, collection, recordId);
    const rawKeys = body?.correlationKeys ?? query.get('correlationKeys')?.split(',') ?? [];
    if (!Array.isArray(rawKeys) || rawKeys.some((key) => typeof key !== 'string')) {
      throw new ValidationError('correlationKeys must be a list of strings');
    }
    const keys = (rawKeys as string[]).map((key) => key.trim()).filter(Boolean);
    const rows = keys.length === 0 ? [] : await correlationEntries(keys);
    sendJson(response, { data: await readableEntries(claims, rows) });
  };
  routes.addFeature('GET', '/_audit-trail/correlations', correlations);
  routes.addFeature('POST', '/_audit-trail/correlations', correlations);

  routes.addFeature(
    'GET',
    '/_audit-trail/:collection/:id/state',
    async (request, response, params) => {
      const claims = getSessionClaims(request);
      const raw = queryOf(request).get('at');
      if (raw === null || raw === '') throw new ValidationError('Missing "at" query parameter');
      const timezone = queryOf(request).get('timezone') || 'UTC';
      const at = parseBound('at', raw, timezone, false) as Date;
      const { collection, recordId, database } = await openRecord(claims, params[0], params[1]);
      const row = await recorder.table.lastChangeAt(database, collection.name, recordId, at);
      if (!row || row.operation === 'delete') {
        throw new NotFoundError('Record did not exist at this timestamp');
      }
      sendJson(response, { data: visible(row.collection, row.after) });
    },
  );

  // Canopy's addition: several records of a collection at one time, in one query.
  routes.addFeature(
    'POST',
    '/_audit-trail/:collection/states',
    async (request, response, params) => {
      const claims = getSessionClaims(request);
      const body = (request as { body?: unknown }).body as Record<string, unknown> | undefined;
      const raw = body?.at;
      if (raw === undefined || raw === null || raw === '')
        throw new ValidationError('Missing "at"');
      if (typeof raw !== 'string') throw new ValidationError('"at" must be a date-time string');
      const timezone = queryOf(request).get('timezone') || 'UTC';
      const at = parseBound('at', raw, timezone, false) as Date;
      const collection = findPublished(String(params[0]));
      await permissions.assertCollectionRight(claims, collection.name, 'read');
      let ids = readStateIds(collection, body?.ids);
      const database = recorder.databaseOf(layer.getCollection(collection.name));
      if (!database) throw new NotFoundError(`No history for '${collection.name}'`);
      const scope = await permissions.getScope(claims, collection);
      if (scope) {
        const shown = await idsInScope(collection, callerOf(claims), scope, ids);
        ids = ids.filter((id) => shown.has(id));
      }
      const rows = await recorder.table.statesAt(database, collection.name, ids, at);
      sendJson(response, {
        data: ids.map((id) =>
          recordState(id, rows.get(id), (values) => visible(collection.name, values)),
        ),
      });
    },
  );

  routes.addFeature('GET', '/_audit-trail/:collection/:id', async (request, response, params) => {
    const claims = getSessionClaims(request);
    const query = queryOf(request);
    const { collection, recordId, database } = await openRecord(claims, params[0], params[1]);
    const timezone = query.get('timezone') || 'UTC';
    const start = parseBound('startDate', query.get('startDate'), timezone, false);
    const end = parseBound('endDate', query.get('endDate'), timezone, true);
    const userIds = (query.get('userIds') ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean)
      .map(Number);
    const fields = (query.get('fields') ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean);
    const search = (query.get('search') ?? '').trim().toLowerCase();
    const all = (await recorder.table.history(database, collection.name, recordId)).map((row) => ({
      row,
      entry: present(row),
    }));
    let matching = all.filter(({ row, entry }) => {
      if (userIds.length > 0 && !userIds.includes(row.callerId as number)) return false;
      if (start && row.occurredAt < start) return false;
      if (end && row.occurredAt > end) return false;
      if (
        fields.length > 0 &&
        !fields.some(
          (field) => field in (entry.previousValues ?? {}) || field in (entry.newValues ?? {}),
        )
      ) {
        return false;
      }
      if (search) {
        const text = JSON.stringify([
          entry.previousValues,
          entry.newValues,
          entry.actionName,
          entry.userEmail,
          entry.userFirstName,
          entry.userLastName,
        ]).toLowerCase();
        if (!text.includes(search)) return false;
      }
      return true;
    });
    if (query.get('sort') !== 'timestamp') matching = matching.reverse();
    const number = pageParameter(query.get('page[number]'), 1, 1_000_000);
    const size = pageParameter(query.get('page[size]'), DEFAULT_HISTORY_PAGE, MAX_HISTORY_PAGE);
    const page = matching.slice((number - 1) * size, number * size).map(({ entry }) => entry);
    const meta: Record<string, unknown> = { count: matching.length };
    if (query.get('page[number]') === null) {
      const users = new Map<number, Record<string, unknown>>();
      for (const { row } of all) {
        if (row.callerId === null || users.has(row.callerId)) continue;
        users.set(row.callerId, {
          id: row.callerId,
          firstName: row.callerFirstName,
          lastName: row.callerLastName,
          email: row.callerEmail,
        });
      }
      meta.availableUsers = [...users.values()];
    }
    sendJson(response, { data: page, meta });
  });
}
