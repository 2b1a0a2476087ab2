import type { Request, Response, Router } from 'express';

import { renderCollectionChart, renderDataSourceChart } from '../../operations/render-chart';
import { readQuery } from '../../protocol/query/query-string';
import { unpackRecordId } from '../../operations/records/record-id';
import { findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import { statsEnvelope } from './chart-envelope';

/** Scalar members of the query and the body (body wins), stringified (§10.2). */
function chartParameters(request: Request): Record<string, string> {
  const parameters: Record<string, string> = {};
  const add = (source: unknown) => {
    if (typeof source !== 'object' || source === null) return;
    for (const [key, value] of Object.entries(source)) {
      if (['string', 'number', 'boolean'].includes(typeof value)) parameters[key] = String(value);
    }
  };
  add(readQuery(request));
  add(request.body);
  return parameters;
}

/**
 * Charts declared in code (§10.2): data-source charts at `/_charts/{chart}`, collection charts at
 * `/_charts/{c}/{chart}` for one record. POST answers are wrapped, GET answers raw. No
 * permission check beyond authentication (quirk 14).
 */
export function mountApiChartRoutes(router: Router, context: HttpContext): void {
  const dataSourceChart = async (request: Request, response: Response) => {
    const data = openDataRequest(context, request, response);
    const name = request.params.chartName as string;
    return renderDataSourceChart(context, data, name, chartParameters(request));
  };

  const collectionChart = async (request: Request, response: Response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName as string);
    return renderCollectionChart(data, collection, request.params.chartName as string, () => {
      const parameters = chartParameters(request);
      return { recordId: unpackRecordId(collection, parameters.record_id), parameters };
    });
  };

  router.post('/_charts/:chartName', async (request, response) => {
    response.json(statsEnvelope(await dataSourceChart(request, response)));
  });
  router.get('/_charts/:chartName', async (request, response) => {
    response.json(await dataSourceChart(request, response));
  });
  router.post('/_charts/:collectionName/:chartName', async (request, response) => {
    response.json(statsEnvelope(await collectionChart(request, response)));
  });
  router.get('/_charts/:collectionName/:chartName', async (request, response) => {
    response.json(await collectionChart(request, response));
  });
}
