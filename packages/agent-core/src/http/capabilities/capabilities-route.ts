import type { Router } from 'express';

import { ValidationError } from '../../toolkit/errors/canopy-error';
import { describeCollectionCapabilities } from '../../protocol/capabilities/collection-capabilities';
import { getSessionClaims } from '../auth/authenticate';
import type { HttpContext } from '../request/http-context';

/**
 * `POST /_internal/capabilities` (§11) and `POST /scope-cache-invalidation` (§12): both need a
 * token only.
 */
export function mountInternalRoutes(router: Router, context: HttpContext): void {
  const { dataSource } = context.services;
  router.post('/_internal/capabilities', (request, response) => {
    getSessionClaims(request);
    const names: unknown = (request.body as { collectionNames?: unknown } | undefined)
      ?.collectionNames;
    const wanted = new Set(
      Array.isArray(names) ? names.filter((name) => typeof name === 'string') : [],
    );
    response.json({
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

  router.post('/scope-cache-invalidation', (request, response) => {
    const raw: unknown = (request.body as { renderingId?: unknown } | undefined)?.renderingId;
    const renderingId =
      typeof raw === 'number' || (typeof raw === 'string' && raw !== '') ? Number(raw) : NaN;
    if (!Number.isFinite(renderingId)) {
      throw new ValidationError('Malformed body: expected {"renderingId": <number>}');
    }
    context.permissions.invalidateScopes(renderingId);
    response.status(204).end();
  });
}
