import { UnprocessableError } from '../../toolkit/errors/canopy-error';
import type { RecordData } from '../../toolkit/record/record-utils';
import { openDataRequest } from '../request/data-request';
import type { RouteTable } from '../pipeline/route-table';
import { sendJson } from '../pipeline/send-json';
import type { HttpContext } from '../request/http-context';
import { requestBody } from '../request/node-http';
import { statsEnvelope } from './chart-envelope';
import { assertChartAllowed } from '../../operations/charts/chart-permission';

const QUERY_TYPES = new Set(['Value', 'Objective', 'Pie', 'Line', 'Leaderboard', 'Percentage']);
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses anything but one `SELECT … FROM …` statement (§10.3 step 3). */
export function assertSingleSelect(query: string): void {
  const trimmed = query.trim().replace(/;\s*$/, '');
  if (trimmed === '') throw new UnprocessableError('You cannot execute an empty SQL query.');
  if (trimmed.includes(';')) throw new UnprocessableError('You cannot chain SQL queries.');
  if (!/^\(?\s*(with\b[\s\S]*\bselect|select)\b[\s\S]*\bfrom\b/i.test(trimmed)) {
    throw new UnprocessableError('Only SELECT queries are allowed.');
  }
}

function requireColumns(rows: readonly RecordData[], columns: readonly string[]): void {
  const first = rows[0];
  if (!first) return;
  const missing = columns.filter((column) => !(column in first));
  if (missing.length > 0) {
    throw new UnprocessableError(
      `The result columns must be named ${columns.join(', ')} instead of '${Object.keys(first).join("', '")}'.`,
    );
  }
}

/** `POST /_internal/native_query` (§10.3): SQL charts on a native-query connection. */
export function addNativeQueryRoute(routes: RouteTable, context: HttpContext): void {
  const { dataSource } = context.services;
  routes.add('POST', '/_internal/native_query', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const received = requestBody(request);
    const body = isObject(received) ? received : {};
    const { type, query, connectionName } = body;
    if (typeof query !== 'string' || typeof type !== 'string' || !QUERY_TYPES.has(type)) {
      throw new UnprocessableError('Native query endpoint only supports Query Chart Requests');
    }
    if (typeof connectionName !== 'string' || connectionName === '') {
      throw new UnprocessableError('Missing native query connection attribute');
    }
    if (!(connectionName in dataSource.nativeQueryConnections)) {
      throw new UnprocessableError(`Native query connection '${connectionName}' is unknown`);
    }
    assertChartAllowed(data.claims, await context.permissions.getRendering(data.claims), body);
    assertSingleSelect(query);
    const variables: Record<string, unknown> = {
      ...(await context.permissions.getContextVariables(data.claims)),
      ...(isObject(body.contextVariables) ? body.contextVariables : {}),
    };
    const bound: Record<string, unknown> = {};
    const sql = query.replace(PLACEHOLDER, (_match, name: string) => {
      const key = name.replace(/\./g, '_');
      bound[key] = variables[name] ?? null;
      return `$${key}`;
    });
    let rows: RecordData[];
    try {
      rows = await dataSource.executeNativeQuery(connectionName, sql, bound);
    } catch (error) {
      throw new UnprocessableError(
        `Error during chart native query execution: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    sendJson(response, statsEnvelope(mapRows(type, rows)));
  });
}

function mapRows(type: string, rows: RecordData[]): unknown {
  switch (type) {
    case 'Value': {
      requireColumns(rows, ['value']);
      const [row] = rows;
      if (!row) return [];
      return row.previous === undefined
        ? { countCurrent: row.value }
        : { countCurrent: row.value, countPrevious: row.previous };
    }
    case 'Objective': {
      requireColumns(rows, ['value', 'objective']);
      const [row] = rows;
      return row ? { value: row.value, objective: row.objective } : [];
    }
    case 'Line':
      requireColumns(rows, ['key', 'value']);
      return rows.map((row) => ({ label: row.key, values: { value: row.value } }));
    case 'Pie':
    case 'Leaderboard':
      requireColumns(rows, ['key', 'value']);
      return rows;
    default:
      throw new UnprocessableError(
        `Native query charts of type "${type}" are not supported: use Value, Objective, Pie, Line or Leaderboard`,
      );
  }
}
