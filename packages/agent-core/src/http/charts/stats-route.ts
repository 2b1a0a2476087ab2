import type { Router } from 'express';

import { runChart } from '../../operations/chart';
import { findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import { statsEnvelope } from './chart-envelope';

/** `POST /stats/{c}` (§10.1): an adapter over the chart operation (`src/operations/chart.ts`). */
export function mountStatsRoute(router: Router, context: HttpContext): void {
  router.post('/stats/:collectionName', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    const received =
      typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};
    response.json(statsEnvelope(await runChart(context, data, collection, received)));
  });
}
