import { renderCollectionChart, renderDataSourceChart } from '../../operations/render-chart';
import { readQuery } from '../../protocol/query/query-string';
import { unpackRecordId } from '../../operations/records/record-id';
import { findCollection, openDataRequest } from '../request/data-request';
import type { RouteTable } from '../pipeline/route-table';
import { sendJson } from '../pipeline/send-json';
import type { HttpContext } from '../request/http-context';
import { type HttpRequest, type HttpResponse, requestBody } from '../request/node-http';
import { statsEnvelope } from './chart-envelope';

/** Scalar members of the query and the body (body wins), stringified (§10.2). */
function chartParameters(request: HttpRequest): Record<string, string> {
  const parameters: Record<string, string> = {};
  const add = (source: unknown) => {
    if (typeof source !== 'object' || source === null) return;
    for (const [key, value] of Object.entries(source)) {
      if (['string', 'number', 'boolean'].includes(typeof value)) parameters[key] = String(value);
    }
  };
  add(readQuery(request));
  add(requestBody(request));
  return parameters;
}

/**
 * Charts declared in code (§10.2): data-source charts at `/_charts/{chart}`, collection charts at
 * `/_charts/{c}/{chart}` for one record. POST answers are wrapped, GET answers raw. No
 * permission check beyond authentication (quirk 14).
 */
export function addApiChartRoutes(routes: RouteTable, context: HttpContext): void {
  const dataSourceChart = async (
    request: HttpRequest,
    response: HttpResponse,
    params: readonly string[],
  ) => {
    const data = openDataRequest(context, request, response);
    return renderDataSourceChart(context, data, params[0] as string, chartParameters(request));
  };

  const collectionChart = async (
    request: HttpRequest,
    response: HttpResponse,
    [collectionName, chartName]: readonly string[],
  ) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, collectionName as string);
    return renderCollectionChart(data, collection, chartName as string, () => {
      const parameters = chartParameters(request);
      return { recordId: unpackRecordId(collection, parameters.record_id), parameters };
    });
  };

  // POST answers are wrapped in the `stats` envelope, GET answers are raw.
  routes
    .add('POST', '/_charts/:chartName', async (request, response, params) => {
      sendJson(response, statsEnvelope(await dataSourceChart(request, response, params)));
    })
    .add('GET', '/_charts/:chartName', async (request, response, params) => {
      sendJson(response, await dataSourceChart(request, response, params));
    })
    .add('POST', '/_charts/:collectionName/:chartName', async (request, response, params) => {
      sendJson(response, statsEnvelope(await collectionChart(request, response, params)));
    })
    .add('GET', '/_charts/:collectionName/:chartName', async (request, response, params) => {
      sendJson(response, await collectionChart(request, response, params));
    });
}
