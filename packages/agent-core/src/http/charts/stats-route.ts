import { runChart } from '../../operations/chart';
import { findCollection, openDataRequest } from '../request/data-request';
import type { RouteTable } from '../pipeline/route-table';
import { sendJson } from '../pipeline/send-json';
import type { HttpContext } from '../request/http-context';
import { requestBody } from '../request/node-http';
import { statsEnvelope } from './chart-envelope';

/** `POST /stats/{c}` (§10.1): an adapter over the chart operation (`src/operations/chart.ts`). */
export function addStatsRoute(routes: RouteTable, context: HttpContext): void {
  routes.add('POST', '/stats/:collectionName', async (request, response, [name]) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, name as string);
    const body = requestBody(request);
    const received =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {};
    sendJson(response, statsEnvelope(await runChart(context, data, collection, received)));
  });
}
