import express, { type Request, type RequestHandler } from 'express';

import { authenticate, getSessionClaims } from '../http/auth/authenticate';
import type { SessionClaims } from '../http/auth/session-token';
import { createErrorHandler } from '../http/errors/error-handler';
import { NotFoundError } from '../http/errors/http-errors';
import { ipWhitelistGuard } from '../http/ip-whitelist/ip-whitelist-guard';
import { PermissionChecker } from '../http/permissions/permission-checker';
import { cors } from '../http/pipeline/cors';
import { unpackRecordId } from '../http/serializer/record-id';
import type { AgentServices } from '../platform/agent-services';
import type { Caller } from '../toolkit/caller';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { DataSource } from '../toolkit/interfaces/data-source';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { Page } from '../toolkit/query/page';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import { Projection } from '../toolkit/query/projection';
import type { RecordData } from '../toolkit/record/record-utils';
import { getPrimaryKeys } from '../toolkit/schema/schema-utils';
import type { AuditRecorder } from './audit-recorder';
import type { StoredAuditRow } from './audit-store';

const DEFAULT_HISTORY_PAGE = 15;
const MAX_HISTORY_PAGE = 100;

/** A history row as the routes answer it (field names as users see them, hidden fields out). */
export interface AuditRowAnswer {
  id: number;
  correlationId: string;
  occurredAt: string;
  caller: { id: number | null; email: string | null; renderingId: number | null };
  collection: string;
  recordId: string | null;
  operation: StoredAuditRow['operation'];
  actionName: string | null;
  before: RecordData | null;
  after: RecordData | null;
}

function positiveInteger(name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1 || number > max) {
    throw new ValidationError(
      `'${name}' must be an integer between 1 and ${max}, got ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

function callerOf(claims: SessionClaims): Caller {
  return {
    id: claims.id,
    email: claims.email,
    firstName: claims.firstName,
    lastName: claims.lastName,
    team: claims.team,
    role: claims.role,
    tags: claims.tags ?? {},
    permissionLevel: claims.permissionLevel,
    renderingId: claims.renderingId,
    timezone: 'UTC',
  };
}

/**
 * Serves the history routes in front of the agent's `router`, with the agent's CORS, session
 * check and IP whitelist:
 *
 * - `GET <prefix>/_audit-trail/records/:collection/:id` — a record's rows, newest first, paged
 *   (`page[number]`, `page[size]` ≤ 100);
 * - `GET <prefix>/_audit-trail/records/:collection/:id/at?time=<ISO 8601>` — the record as it
 *   was at that time;
 * - `GET <prefix>/_audit-trail/correlations/:correlationId` — the rows of one request.
 *
 * Each is checked like reading the record: the `read` right on its collection, and for a
 * caller with a scope, the record must exist within it now.
 */
export function withAuditTrail(
  router: RequestHandler,
  services: AgentServices,
  recorder: AuditRecorder,
  layer: DataSource,
): RequestHandler {
  const { options, logger } = services;
  const permissions = new PermissionChecker(services.permissions);
  const published = services.dataSource;
  const routes = express.Router({ caseSensitive: true });
  routes.use(cors(options.corsOrigins));
  routes.use(authenticate(options.authSecret));
  if (services.ipWhitelist) routes.use(ipWhitelistGuard(services.ipWhitelist));

  const findPublished = (name: string): Collection => {
    const collection = published.collections.find((candidate) => candidate.name === name);
    if (!collection) throw new NotFoundError(`Collection '${name}' does not exist`);
    return collection;
  };

  /** The row with field names as users see them, fields they cannot see dropped. */
  const present = (row: StoredAuditRow): AuditRowAnswer => {
    const top = published.collections.find((candidate) => candidate.name === row.collection);
    const visible = (values: RecordData | null): RecordData | null => {
      if (!values) return null;
      const result: RecordData = {};
      for (const [field, value] of Object.entries(values)) {
        const exposed = recorder.exposedName(row.collection, field);
        if (top?.schema.fields[exposed]) result[exposed] = value;
      }
      return result;
    };
    return {
      id: row.id,
      correlationId: row.correlationId,
      occurredAt: row.occurredAt.toISOString(),
      caller: { id: row.callerId, email: row.callerEmail, renderingId: row.renderingId },
      collection: row.collection,
      recordId: row.recordId,
      operation: row.operation,
      actionName: row.actionName,
      before: visible(row.before),
      after: visible(row.after),
    };
  };

  /** Read right, and within the caller's scope (checked on the record as it is now). */
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
    if (!found)
      throw new NotFoundError(
        `Record does not exist in your scope ('${collection.name}' ${packedId})`,
      );
  };

  const open = (request: Request) => {
    const claims = getSessionClaims(request);
    const collection = findPublished(String(request.params.collection));
    const recordId = String(request.params.id);
    unpackRecordId(collection, recordId);
    const database = recorder.databaseOf(layer.getCollection(collection.name));
    if (!database) throw new NotFoundError(`No history for '${collection.name}'`);
    return { claims, collection, recordId, database };
  };

  routes.get('/records/:collection/:id', async (request, response) => {
    const { claims, collection, recordId, database } = open(request);
    await assertCanRead(claims, collection, recordId);
    // Read from the raw query string: express's parser would nest `page[number]` as an object.
    const query = new URL(request.originalUrl, 'http://agent').searchParams;
    const page = {
      number: positiveInteger('page[number]', query.get('page[number]') ?? undefined, 1, 1_000_000),
      size: positiveInteger(
        'page[size]',
        query.get('page[size]') ?? undefined,
        DEFAULT_HISTORY_PAGE,
        MAX_HISTORY_PAGE,
      ),
    };
    const { rows, total } = await recorder.table.history(database, collection.name, recordId, page);
    response.json({ data: rows.map(present), meta: { count: total, page } });
  });

  routes.get('/records/:collection/:id/at', async (request, response) => {
    const { claims, collection, recordId, database } = open(request);
    const raw = request.query.time;
    const time = typeof raw === 'string' && raw !== '' ? new Date(raw) : null;
    if (!time || Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(String(raw))) {
      throw new ValidationError(
        `'time' must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z, got ${JSON.stringify(raw ?? null)}.`,
      );
    }
    await assertCanRead(claims, collection, recordId);
    const row = await recorder.table.lastChangeAt(database, collection.name, recordId, time);
    const shown = row ? present(row) : null;
    response.json({
      data: {
        collection: collection.name,
        recordId,
        time: time.toISOString(),
        existed: shown !== null && shown.operation !== 'delete',
        values: shown && shown.operation !== 'delete' ? shown.after : null,
        changedAt: shown?.occurredAt ?? null,
        historyRowId: shown?.id ?? null,
      },
    });
  });

  routes.get('/correlations/:correlationId', async (request, response) => {
    const claims = getSessionClaims(request);
    const correlationId = String(request.params.correlationId);
    if (correlationId.length > 64) {
      throw new ValidationError('A correlation id has at most 64 characters.');
    }
    const rows = (
      await Promise.all(
        recorder
          .databases(layer)
          .map((database) => recorder.table.correlation(database, correlationId)),
      )
    )
      .flat()
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id);
    const allowed: StoredAuditRow[] = [];
    for (const row of rows) {
      const collection = published.collections.find(
        (candidate) => candidate.name === row.collection,
      );
      if (!collection) continue;
      try {
        if (row.recordId === null) {
          await permissions.assertCollectionRight(claims, collection.name, 'read');
        } else {
          await assertCanRead(claims, collection, row.recordId);
        }
        allowed.push(row);
      } catch {
        // Rows of records the caller may not read are left out.
      }
    }
    if (allowed.length === 0) {
      throw new NotFoundError(`No history rows you may read for correlation id '${correlationId}'`);
    }
    response.json({ data: allowed.map(present) });
  });

  routes.use(createErrorHandler(logger));

  const root = express.Router({ caseSensitive: true });
  root.use(`${options.prefix.replace(/\/+$/, '')}/_audit-trail`, routes);
  return (request, response, next) =>
    root(request, response, () => router(request, response, next));
}
