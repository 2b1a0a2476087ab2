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
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { matchRecord } from '../../toolkit/evaluator/match-record';
import { columnTypeResolver } from '../../toolkit/validation/field-path';
import {
  acrossRecords,
  correlationKeysOf,
  correlationTarget,
  historyBound,
  historyFields,
  historyPage,
  historyUserIds,
  searchMatches,
} from './audit-wire';

/** A history entry as the routes answer it (agent-http-protocol §13.1): always written. */
export type AuditEntry = HistoryEntry<RecordData> & {
  previousValues: RecordData;
  newValues: RecordData;
  status: 'done';
};

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

  /**
   * An entry; an update shows only the fields it changed; an action shows its form and result
   * summary; a side with no values is `{}`, and a record-less action's `recordId` is `''`.
   */
  const present = (row: StoredAuditRow): AuditEntry => {
    const action = row.operation === 'action' || row.operation === 'action_failed';
    let previousValues = (action ? row.before : visible(row.collection, row.before)) ?? {};
    let newValues = (action ? row.after : visible(row.collection, row.after)) ?? {};
    if (row.operation === 'update') {
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
      recordId: row.recordId ?? '',
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

  /** Whether the record exists, within `scope` when given. */
  const exists = async (
    claims: SessionClaims,
    collection: Collection,
    packedId: string,
    scope: ConditionTree | null,
  ): Promise<boolean> => {
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
    return found !== undefined;
  };

  /**
   * Read right, then the record under the caller's scope: refused (`404 <refusal>`) only when it
   * still exists outside the scope; a record gone entirely has nothing left to check a scope
   * against, so its history is readable by anyone who may read the collection (`gone`).
   */
  const visibility = async (
    claims: SessionClaims,
    collection: Collection,
    packedId: string,
    refusal = 'Record does not exists',
  ): Promise<{ scope: ConditionTree | null; gone: boolean }> => {
    await permissions.assertCollectionRight(claims, collection.name, 'read');
    unpackRecordId(collection, packedId);
    const scope = await permissions.getScope(claims, collection);
    if (!scope || (await exists(claims, collection, packedId, scope)))
      return { scope, gone: false };
    if (await exists(claims, collection, packedId, null)) throw new NotFoundError(refusal);
    return { scope, gone: true };
  };

  /**
   * A gone record's entry seen through a scope: values that would fail it are withheld (`{}`) —
   * a delete's last state, a create's first, and an update's changes (a partial record, which the
   * scope cannot be checked on). Who did what and when stays.
   */
  const withhold = (
    entry: AuditEntry,
    collection: Collection,
    scope: ConditionTree,
    timezone: string,
  ): AuditEntry => {
    const inScope = (values: RecordData) => {
      try {
        return matchRecord(scope, values, columnTypeResolver(collection), { timezone });
      } catch {
        return false;
      }
    };
    if (entry.operation === 'delete' && !inScope(entry.previousValues)) {
      return { ...entry, previousValues: {} };
    }
    if (entry.operation === 'create' && !inScope(entry.newValues)) {
      return { ...entry, newValues: {} };
    }
    if (entry.operation === 'update') return { ...entry, previousValues: {}, newValues: {} };
    return entry;
  };

  /** The checked record of a request, and the database of its history. */
  const openRecord = async (
    claims: SessionClaims,
    collectionName: unknown,
    recordId: unknown,
    refusal?: string,
  ) => {
    if (typeof collectionName !== 'string' || collectionName === '') {
      throw new ValidationError('Missing collection');
    }
    if ((typeof recordId !== 'string' && typeof recordId !== 'number') || recordId === '') {
      throw new ValidationError('Missing recordId');
    }
    const collection = findPublished(collectionName);
    const packed = String(recordId);
    const { scope, gone } = await visibility(claims, collection, packed, refusal);
    const database = recorder.databaseOf(layer.getCollection(collection.name));
    if (!database) throw new NotFoundError(`No history for '${collection.name}'`);
    return { collection, recordId: packed, database, scope, gone };
  };

  const queryOf = (request: HttpRequest) =>
    new URL(request.originalUrl ?? request.url ?? '/', 'http://agent').searchParams;

  const correlationEntries = async (allKeys: readonly string[]) => {
    // A correlation id has at most 64 characters: a longer key has no entries.
    const keys = allKeys.filter((key) => key.length <= 64);
    if (keys.length === 0) return [];
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

  /**
   * A correlation route: the record named opens it; the answer is that record's entries of the
   * keys, or with Canopy's `acrossRecords=true` every entry of them the caller may read.
   */
  const correlationRoute =
    (keysOf: (body: Record<string, unknown>, query: URLSearchParams, key?: string) => string[]) =>
    async (...[request, response, params]: Parameters<TableRouteHandler>) => {
      const claims = getSessionClaims(request);
      const query = queryOf(request);
      const raw = (request as { body?: unknown }).body;
      const body =
        raw && typeof raw === 'object' && !Array.isArray(raw)
          ? (raw as Record<string, unknown>)
          : {};
      const target = correlationTarget(body, query);
      const { collection, recordId } = await openRecord(claims, target.collection, target.recordId);
      const keys = keysOf(body, query, params[0]);
      const rows = keys.length === 0 ? [] : await correlationEntries(keys);
      const data = acrossRecords(body, query)
        ? await readableEntries(claims, rows)
        : rows
            .filter((row) => row.collection === collection.name && row.recordId === recordId)
            .map(present);
      sendJson(response, { data });
    };

  routes.addFeature(
    'GET',
    '/_audit-trail/correlation/:key',
    correlationRoute((_body, _query, key) => [String(key)]),
  );
  const correlations = correlationRoute((body, query) =>
    correlationKeysOf(body, query.get('correlationKeys')),
  );
  routes.addFeature('GET', '/_audit-trail/correlations', correlations);
  routes.addFeature('POST', '/_audit-trail/correlations', correlations);

  /** The record's audited values now (writable columns and keys), within `scope`. */
  const currentValues = async (
    claims: SessionClaims,
    collection: Collection,
    packedId: string,
    scope: ConditionTree | null,
  ): Promise<RecordData | null> => {
    const keys = getPrimaryKeys(collection.schema);
    const columns = Object.entries(collection.schema.fields)
      .filter(
        ([name, field]) => field.type === 'Column' && (!field.isReadOnly || keys.includes(name)),
      )
      .map(([name]) => name);
    const [found] = await collection.list(
      callerOf(claims),
      new PaginatedFilter({
        conditionTree: ConditionTreeFactory.intersect(
          scope,
          ConditionTreeFactory.matchIds(collection.schema, [unpackRecordId(collection, packedId)]),
        ),
        page: new Page(0, 1),
      }),
      new Projection(...columns),
    );
    return found ?? null;
  };

  routes.addFeature(
    'GET',
    '/_audit-trail/:collection/:id/state',
    async (request, response, params) => {
      const claims = getSessionClaims(request);
      const query = queryOf(request);
      const missing = 'Record did not exist at this timestamp';
      const { collection, recordId, database, scope } = await openRecord(
        claims,
        params[0],
        params[1],
        missing,
      );
      const raw = query.get('at');
      if (raw === null || raw === '') throw new ValidationError('Missing "at" query parameter');
      const at = historyBound('at', raw, query.get('timezone') || 'UTC', 'start') as Date;
      // The last change at or before `at` says what the record was; else the first change after
      // it says what it was before (nothing, if that was its creation); else it is as it is now.
      const last = await recorder.table.lastChangeAt(database, collection.name, recordId, at);
      let state: RecordData | null;
      if (last) {
        state = last.operation === 'delete' ? null : visible(last.collection, last.after);
      } else {
        const table = recorder.table;
        const next = await table.nearestChange(database, collection.name, recordId, at, 'after');
        if (!next) state = await currentValues(claims, collection, recordId, scope);
        else state = next.operation === 'create' ? null : visible(next.collection, next.before);
      }
      if (!state) throw new NotFoundError(missing);
      sendJson(response, { data: state });
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
      const at = historyBound('at', raw, timezone, 'start') as Date;
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
    const { collection, recordId, database, scope, gone } = await openRecord(
      claims,
      params[0],
      params[1],
    );
    const timezone = query.get('timezone') || 'UTC';
    const start = historyBound('startDate', query.get('startDate'), timezone, 'start');
    const end = historyBound('endDate', query.get('endDate'), timezone, 'end');
    const userIds = historyUserIds(query.get('userIds'));
    const fields = historyFields(query.get('fields'));
    const search = (query.get('search') ?? '').trim().toLowerCase();
    const all = (await recorder.table.history(database, collection.name, recordId)).map((row) => ({
      row,
      entry: present(row),
    }));
    let matching = all.filter(({ row, entry }) => {
      if (userIds && !userIds.includes(row.callerId as number)) return false;
      if (start && row.occurredAt < start) return false;
      if (end && row.occurredAt > end) return false;
      if (
        fields.length > 0 &&
        !fields.some((field) => field in entry.previousValues || field in entry.newValues)
      ) {
        return false;
      }
      if (
        search &&
        !searchMatches(search, [
          entry.actionName,
          entry.userFirstName,
          entry.userLastName,
          entry.userEmail,
          JSON.stringify(entry.previousValues),
          JSON.stringify(entry.newValues),
        ])
      ) {
        return false;
      }
      return true;
    });
    if (query.get('sort') !== 'timestamp') matching = matching.reverse();
    const { number, size } = historyPage(query.get('page[number]'), query.get('page[size]'));
    const page = matching
      .slice((number - 1) * size, number * size)
      .map(({ entry }) =>
        scope && gone ? withhold(entry, findPublished(collection.name), scope, timezone) : entry,
      );
    const meta: Record<string, unknown> = { count: matching.length };
    if (query.get('page[number]') === null) {
      // The authors of the entries the filters keep, whatever the page.
      const users = new Map<number, Record<string, unknown>>();
      for (const { row } of matching) {
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
