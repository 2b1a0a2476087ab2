import { neutralizeCsvCell } from '@canopy/platform-protocol';

import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { ExportReader } from '../../operations/csv';
import type { Collection } from '../../toolkit/interfaces/collection';
import { getFieldValue } from '../../toolkit/record/record-utils';
import { defaultProjection } from '../../operations/query/projection';
import { readRequestedProjection } from '../../protocol/query/projection';
import { parseSort } from '../../protocol/query/sort';
import type { DataRequest } from '../request/data-request';
import type { HttpResponse } from '../request/node-http';

/** Renders one cell (§8.14): empty for null, arrays comma-joined, objects as JSON, dates ISO. */
export function renderCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(renderCell).join(',');
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A cell as the export writes it: numbers, big integers and booleans stay typed (never read as a
 * formula, `-5` stays `-5`); everything else is rendered as text by {@link renderCell}, and the
 * writer neutralizes text that a spreadsheet would read as a formula.
 */
function exportCell(value: unknown): string | number | bigint | boolean {
  return typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
    ? value
    : renderCell(value);
}

/** How rows are written: `\n` line ends, text cells neutralized (`=`, `+`, `-`, `@`, tab, CR). */
const CSV_OPTIONS = {
  record_delimiter: '\n',
  cast: {
    string: (value: string) => neutralizeCsvCell(value),
    boolean: (value: boolean) => String(value),
  },
} as const;

/** csv-stringify, loaded on the first export: an agent nobody exports from never loads it. */
const loadStringify = () => import('csv-stringify/sync').then((module) => module.stringify);

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Streams a CSV export (§8.14) read by `reader`: only one batch is held in memory, and the next
 * batch is read once the socket has drained.
 */
export async function streamCsv(
  data: DataRequest,
  response: HttpResponse,
  collection: Collection,
  reader: ExportReader,
  projectionKey: string,
): Promise<void> {
  const header = data.query.header;
  if (header === undefined) {
    throw new ValidationError('Missing header: the CSV export needs "header=<label>,<label>,..."');
  }
  const stringify = await loadStringify();
  const headerValue = data.request.headers['forest-projection'];
  const projection =
    readRequestedProjection(
      collection,
      data.query,
      typeof headerValue === 'string' ? headerValue : undefined,
      projectionKey,
    ) ?? defaultProjection(collection);
  const batches = reader.batches(projection, parseSort(collection, data.query.sort));

  // The first batch is read before anything is sent, so that a query the data source refuses is
  // still a JSON:API error; later failures can only abort the stream.
  let next = await batches.next();
  response.statusCode = 200;
  response.setHeader('Content-Type', 'text/csv; charset=utf-8');
  response.setHeader(
    'Content-Disposition',
    contentDisposition(data.query.filename || 'export.csv'),
  );
  response.setHeader('Access-Control-Expose-Headers', 'Content-Disposition');
  response.setHeader('Last-Modified', new Date().toUTCString());
  response.setHeader('X-Accel-Buffering', 'no');
  response.setHeader('Cache-Control', 'no-cache');
  response.write(stringify([header.split(',')], CSV_OPTIONS));

  while (!next.done) {
    const rows = next.value.map((record) =>
      projection.map((path) => exportCell(getFieldValue(record, path))),
    );
    if (!response.write(stringify(rows, CSV_OPTIONS))) await drained(response);
    if (response.destroyed) {
      await batches.return(undefined);
      break;
    }
    next = await batches.next();
  }
  response.end();
}

/** Resolves when the response can take more data, or is closed (client gone). */
function drained(response: HttpResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
