import { describe, expect, it } from 'vitest';
import {
  bulkEditableFields,
  changedSince,
  ChangedSinceError,
  failureSummary,
  runPerRecord,
  selectionCountParams,
} from './bulk-edit';
import { AgentClient, AgentError } from './client';
import type { SchemaCollection } from './schema';

const orders = {
  name: 'orders',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true },
    { field: 'status', type: 'Enum', enums: ['paid', 'shipped'] },
    { field: 'total', type: 'Number' },
    { field: 'label', type: 'String', isReadOnly: true },
    { field: 'receipt', type: 'Binary' },
    { field: 'customer', type: 'Number', reference: 'customers.id', relationship: 'BelongsTo' },
  ],
} as unknown as SchemaCollection;

const late = { field: 'status', operator: 'equal', value: 'late' };

describe('bulk edit', () => {
  it('offers the writable columns only: no key, read-only field, file or relation', () => {
    expect(bulkEditableFields(orders).map((field) => field.field)).toEqual(['status', 'total']);
  });

  it('counts an "all but" selection as the view without the excluded ids', () => {
    expect(
      selectionCountParams(orders, {
        allRecords: true,
        ids: ['3', '9'],
        filters: late,
        search: 'ada',
      }),
    ).toEqual({
      filters: {
        aggregator: 'and',
        conditions: [late, { field: 'id', operator: 'not_in', value: ['3', '9'] }],
      },
      search: 'ada',
      segment: undefined,
    });
    expect(selectionCountParams(orders, { allRecords: true, ids: [] })).toEqual({
      filters: undefined,
      search: undefined,
      segment: undefined,
    });
  });

  it('counts listed ids within the view, and gives up on a composite key', () => {
    expect(selectionCountParams(orders, { ids: ['1', '2'] })?.filters).toEqual({
      field: 'id',
      operator: 'in',
      value: ['1', '2'],
    });
    const lines = {
      name: 'lines',
      fields: [
        { field: 'order', type: 'Number', isPrimaryKey: true },
        { field: 'line', type: 'Number', isPrimaryKey: true },
      ],
    } as unknown as SchemaCollection;
    expect(selectionCountParams(lines, { ids: ['1|2'] })).toBeUndefined();
  });

  it('runs the fallback a few at a time, reporting progress and collecting failures', async () => {
    const ids = Array.from({ length: 23 }, (_, index) => String(index + 1));
    let running = 0;
    let widest = 0;
    const progress: number[] = [];
    const outcome = await runPerRecord(
      ids,
      async (id) => {
        running += 1;
        widest = Math.max(widest, running);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running -= 1;
        if (id === '7' || id === '20') throw new Error(`refused ${id}`);
      },
      { concurrency: 4, onProgress: (done) => progress.push(done) },
    );
    expect(widest).toBe(4);
    expect(progress).toEqual(ids.map((_, index) => index + 1));
    expect(outcome.updated).toBe(21);
    expect(outcome.failed.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: '20', message: 'refused 20' },
      { id: '7', message: 'refused 7' },
    ]);
    expect(await runPerRecord([], async () => undefined)).toEqual({ updated: 0, failed: [] });
  });

  it('summarises failures in words, the first few by id', () => {
    expect(failureSummary([{ id: '4', message: 'Forbidden' }])).toBe(
      '1 record was not changed: #4 (Forbidden).',
    );
    const many = Array.from({ length: 7 }, (_, index) => ({ id: String(index), message: 'x' }));
    expect(failureSummary(many, 2)).toBe('7 records were not changed: #0 (x), #1 (x) and 5 more.');
  });

  it('counts a record changed since the preview as a conflict, apart from refusals', async () => {
    const outcome = await runPerRecord(['1', '2', '3', '4'], async (id) => {
      if (id === '2') throw new ChangedSinceError();
      if (id === '3') throw new AgentError(412, 'The record changed since you read it');
      if (id === '4') throw new Error('Forbidden');
    });
    expect(outcome.updated).toBe(1);
    const failed = outcome.failed.sort((a, b) => a.id.localeCompare(b.id));
    expect(failed).toEqual([
      { id: '2', message: 'changed since the preview', conflict: true },
      { id: '3', message: 'changed since the preview', conflict: true },
      { id: '4', message: 'Forbidden' },
    ]);
    expect(failureSummary(failed)).toBe(
      '1 record was not changed: #4 (Forbidden). 2 records changed since the preview were left as they are: #2, #3.',
    );
    expect(
      changedSince({ status: 'late', total: '12.50' }, { status: 'late', total: 12.5 }),
    ).toEqual([]);
    expect(changedSince({ status: 'late', gone: 1 }, { status: 'paid' })).toEqual(['status']);
  });

  it('sends one PATCH with the values and the selection, and reads the count', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const client = new AgentClient({
      baseUrl: 'http://agent.test',
      timezone: 'UTC',
      getToken: () => 't',
      fetch: (async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        return new Response(JSON.stringify({ meta: { count: 41 } }));
      }) as unknown as typeof fetch,
    });
    const count = await client.bulkUpdate(
      'orders',
      { allRecords: true, ids: ['3'], filters: late },
      { status: 'shipped' },
    );
    expect(count).toBe(41);
    expect(calls[0]!.url).toBe('http://agent.test/forest/orders?timezone=UTC');
    expect(calls[0]!.init?.method).toBe('PATCH');
    const body = JSON.parse(String(calls[0]!.init?.body));
    expect(body.data).toEqual({ type: 'orders', attributes: { status: 'shipped' } });
    expect(body.meta.selection).toMatchObject({
      all_records: true,
      all_records_ids_excluded: ['3'],
      all_records_subset_query: { filters: JSON.stringify(late) },
    });
  });
});
