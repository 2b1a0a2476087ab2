import { ValidationError } from '../../toolkit/errors/canopy-error';
import { describeCollectionCapabilities } from '../../protocol/capabilities/collection-capabilities';
import { getSessionClaims } from '../auth/authenticate';
import type { RouteTable } from '../pipeline/route-table';
import { sendEmpty, sendJson } from '../pipeline/send-json';
import type { HttpContext } from '../request/http-context';
import { requestBody } from '../request/node-http';

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
        // Canopy's own: `PATCH /:collection` updates a selection in one request (§8.5.1).
        canUseBulkUpdate: true,
        // Canopy's own: `segment=` also names the team's Console segments (§6.7).
        canUseConsoleSegments: true,
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
