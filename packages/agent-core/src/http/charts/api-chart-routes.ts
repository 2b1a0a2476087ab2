import type { Request, Response, Router } from 'express';

import { NotFoundError } from '../errors/http-errors';
import { readQuery } from '../query/query-string';
import { unpackRecordId } from '../serializer/record-id';
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
  const { dataSource } = context.services;

  const dataSourceChart = async (request: Request, response: Response) => {
    const data = openDataRequest(context, request, response);
    const name = request.params.chartName as string;
    if (!dataSource.schema.charts.includes(name)) {
      throw new NotFoundError(`Chart '${name}' does not exist on the data source`);
    }
    return dataSource.renderChart(data.caller, name, chartParameters(request));
  };

  const collectionChart = async (request: Request, response: Response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName as string);
    const name = request.params.chartName as string;
    if (!collection.schema.charts.includes(name)) {
      throw new NotFoundError(`Chart '${name}' does not exist on '${collection.name}'`);
    }
    const parameters = chartParameters(request);
    const recordId = unpackRecordId(collection, parameters.record_id);
    return collection.renderChart(data.caller, name, recordId, parameters);
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
