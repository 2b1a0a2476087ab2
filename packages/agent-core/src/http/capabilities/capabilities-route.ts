import type { Collection } from '../../toolkit/interfaces/collection';
import { isPrimitiveType } from '../../toolkit/schema/column-type';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import { getSessionClaims } from '../auth/authenticate';
import type { RouteTable } from '../pipeline/route-table';
import { sendEmpty, sendJson } from '../pipeline/send-json';
import type { HttpContext } from '../request/http-context';
import { requestBody } from '../request/node-http';

/** `IContains` → `i_contains`, `PreviousXDays` → `previous_x_days` (§11). */
export function toSnakeCase(operator: string): string {
  return operator.replace(/(?!^)([A-Z])/g, '_$1').toLowerCase();
}

/** One collection in the capabilities answer (§11). */
export function describeCollectionCapabilities(collection: Collection) {
  const fields: Record<string, unknown>[] = [];
  for (const [name, field] of Object.entries(collection.schema.fields)) {
    if (field.type === 'Column') {
      const type = field.columnType;
      const primitive = isPrimitiveType(type) || (Array.isArray(type) && isPrimitiveType(type[0]));
      if (!primitive) continue;
      fields.push({
        name,
        type,
        operators: [...field.filterOperators].map(toSnakeCase),
        isGroupable: field.isGroupable ?? true,
      });
    } else if (field.type === 'ManyToOne') {
      const key = collection.schema.fields[field.foreignKey];
      fields.push({
        name,
        type: 'ManyToOne',
        isGroupable: key?.type === 'Column' ? (key.isGroupable ?? true) : true,
      });
    }
  }
  const capabilities = collection.schema.aggregationCapabilities;
  return {
    name: collection.name,
    fields,
    ...(capabilities
      ? {
          aggregationCapabilities: {
            supportGroups:
              capabilities.supportGroups && fields.some((field) => field.isGroupable === true),
            supportedDateOperations: [...capabilities.supportedDateOperations],
          },
        }
      : {}),
  };
}

/**
 * `POST /_internal/capabilities` (§11) and `POST /scope-cache-invalidation` (§12): both need a
 * token only.
 */
export function addInternalRoutes(routes: RouteTable, context: HttpContext): void {
  const { dataSource } = context.services;
  routes.add('POST', '/_internal/capabilities', async (request, response) => {
    getSessionClaims(request);
    const names: unknown = (requestBody(request) as { collectionNames?: unknown } | undefined)
      ?.collectionNames;
    const wanted = new Set(
      Array.isArray(names) ? names.filter((name) => typeof name === 'string') : [],
    );
    sendJson(response, {
      nativeQueryConnections: Object.keys(dataSource.nativeQueryConnections).map((name) => ({
        name,
      })),
      agentCapabilities: {
        canUseProjectionOnGetOne: true,
        canUseProjectionViaHeader: true,
        canUseProjectionViaHeaderOnList: true,
        canUseMultipleFieldsProjectionOnRelation: true,
        canUseAuditTrail: context.services.options.auditTrail === true,
      },
      collections: dataSource.collections
        .filter((c) => wanted.has(c.name))
        .map(describeCollectionCapabilities),
    });
  });

  routes.add('POST', '/scope-cache-invalidation', async (request, response) => {
    const raw: unknown = (requestBody(request) as { renderingId?: unknown } | undefined)
      ?.renderingId;
    const renderingId =
      typeof raw === 'number' || (typeof raw === 'string' && raw !== '') ? Number(raw) : NaN;
    if (!Number.isFinite(renderingId)) {
      throw new ValidationError('Malformed body: expected {"renderingId": <number>}');
    }
    context.permissions.invalidateScopes(renderingId);
    sendEmpty(response);
  });
}
