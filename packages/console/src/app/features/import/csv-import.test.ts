import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { AgentSchema, SchemaCollection } from '../../../protocol';
import type { FormatContext } from '../../components/format';
import { convertCell, convertValue } from './convert';
import { decodeCsv, parseCsv } from './csv-parse';
import { failedRowsCsv, failedRowsOf, LINE_COLUMN, REASON_COLUMN } from './failed-csv';
import { autoMap, mappingProblems } from './mapping';
import { runImport } from './run-import';
import { checkRows, markMissing, relatedIds } from './validate';

const paris: FormatContext = { locale: 'fr-FR', timeZone: 'Europe/Paris' };
const newYork: FormatContext = { locale: 'en-US', timeZone: 'America/New_York' };

const reviews: SchemaCollection = {
  name: 'reviews',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true, isReadOnly: true },
    { field: 'rating', type: 'Number', isRequired: true },
    { field: 'comment', type: 'String', validations: [{ type: 'is shorter than', value: 11 }] },
    { field: 'created_at', type: 'Date', isRequired: true },
    { field: 'mood', type: 'Enum', enums: ['happy', 'sad'] },
    { field: 'verified', type: 'Boolean', defaultValue: false, isRequired: true },
    { field: 'meta', type: 'Json' },
    { field: 'shipped_on', type: 'Dateonly' },
    {
      field: 'product',
      type: 'Number',
      relationship: 'BelongsTo',
      reference: 'products.id',
      isRequired: true,
    },
    { field: 'likes', type: ['Number'], relationship: 'HasMany', reference: 'likes.id' },
  ],
};
const products: SchemaCollection = {
  name: 'products',
  fields: [{ field: 'id', type: 'Number', isPrimaryKey: true }],
};
const schema: AgentSchema = { collections: [reviews, products] };

describe('parseCsv', () => {
  it('keeps the line each record starts on, across quoted line breaks and blank lines', () => {
    const parsed = parseCsv('\ufeffRating,Comment\n5,"two\nlines"\n\n4,ok\r\n3,"x"\n');
    expect(parsed.headers).toEqual(['Rating', 'Comment']);
    expect(parsed.records.map((r) => [r.line, r.cells])).toEqual([
      [2, ['5', 'two\nlines']],
      [5, ['4', 'ok']],
      [6, ['3', 'x']],
    ]);
    expect(parsed.problems).toEqual([]);
  });

  it('reads UTF-8, and Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeCsv(new TextEncoder().encode('Name\nZoë'))).toBe('Name\nZoë');
    expect(decodeCsv(new Uint8Array([0x5a, 0x6f, 0xeb]))).toBe('Zoë');
  });

  it('guesses a semicolon and reports an unclosed quote and extra values by line', () => {
    const parsed = parseCsv('a;b\n1;2;3\n4;"5\n');
    expect(parsed.headers).toEqual(['a', 'b']);
    expect(parsed.problems.map((p) => p.line).sort()).toEqual([2, 3]);
    expect(parsed.problems.find((p) => p.line === 3)?.message).toMatch(/never closed/);
  });
});

describe('mapping', () => {
  it('matches headers by name or label, skips read-only fields and flags missing required ones', () => {
    const headers = ['Id', 'RATING', 'Created at', 'product_id', 'Notes'];
    const mapping = autoMap(headers, reviews);
    expect(mapping).toEqual([null, 'rating', 'created_at', 'product', null]);
    expect(mappingProblems(mapping, headers, reviews)).toEqual([]);
    const without = [null, null, 'created_at', 'product', null];
    expect(mappingProblems(without, headers, reviews)).toEqual([
      'Rating is required: choose the column that holds it.',
    ]);
    expect(mappingProblems(['id', 'rating', 'rating', 'product', null], headers, reviews)).toEqual([
      'Id is read-only: “Id” cannot fill it.',
      '“RATING” and “Created at” both go into Rating.',
      'Created at is required: choose the column that holds it.',
    ]);
  });
});

describe('convert', () => {
  it('reads numbers with a dot or the locale separators', () => {
    expect(convertValue('Number', null, ' 12.5 ', paris)).toEqual({ ok: true, value: 12.5 });
    expect(convertValue('Number', null, '1 234,5', paris)).toEqual({ ok: true, value: 1234.5 });
    expect(convertValue('Number', null, '1,234.5', newYork)).toEqual({ ok: true, value: 1234.5 });
    expect(convertValue('Number', null, 'five', paris).ok).toBe(false);
  });

  it('reads booleans, enums, JSON, times and uuids, refusing what they are not', () => {
    expect(convertValue('Boolean', null, 'Yes')).toEqual({ ok: true, value: true });
    expect(convertValue('Boolean', null, '0')).toEqual({ ok: true, value: false });
    expect(convertValue('Boolean', null, 'maybe').ok).toBe(false);
    expect(convertValue('Enum', ['happy', 'sad'], 'HAPPY')).toEqual({ ok: true, value: 'happy' });
    expect(convertValue('Enum', ['happy', 'sad'], 'angry')).toEqual({
      ok: false,
      message: '“angry” is not one of: happy, sad.',
    });
    expect(convertValue('Json', null, '{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(convertValue('Json', null, '{a').ok).toBe(false);
    expect(convertValue('Time', null, '9:05')).toEqual({ ok: true, value: '09:05:00' });
    expect(convertValue('Time', null, '25:00').ok).toBe(false);
    expect(convertValue('Uuid', null, 'not-a-uuid').ok).toBe(false);
  });

  it("reads a date-time without an offset in the user's time zone, with one as given", () => {
    expect(convertValue('Date', null, '2024-06-04 15:16', paris)).toEqual({
      ok: true,
      value: '2024-06-04T13:16:00.000Z',
    });
    expect(convertValue('Date', null, '2024-06-04T15:16:00Z', paris)).toEqual({
      ok: true,
      value: '2024-06-04T15:16:00.000Z',
    });
    expect(convertValue('Date', null, '2024-06-04T15:16+0200', newYork)).toEqual({
      ok: true,
      value: '2024-06-04T13:16:00.000Z',
    });
    // The user's own format: month first in en-US.
    expect(convertValue('Date', null, '06/04/2024, 09:16 AM', newYork)).toEqual({
      ok: true,
      value: '2024-06-04T13:16:00.000Z',
    });
    expect(convertValue('Date', null, '2024-02-31 10:00', paris).ok).toBe(false);
    expect(convertValue('Dateonly', null, '04/06/2024', paris)).toEqual({
      ok: true,
      value: '2024-06-04',
    });
    expect(convertValue('Dateonly', null, '2024-13-01', paris).ok).toBe(false);
  });

  it('reads a relation cell as an id of the related key type', () => {
    const product = reviews.fields.find((f) => f.field === 'product')!;
    expect(convertCell(product, ' 42 ', paris, 'Number')).toEqual({ ok: true, value: '42' });
    expect(convertCell(product, '4.5', paris, 'Number').ok).toBe(false);
  });
});

describe('checkRows', () => {
  const csv = [
    'Id,Rating,Comment,Created at,Mood,Product,Meta',
    '1,5,Fine,2024-06-04 10:00,happy,7,',
    '2,,Fine,2024-06-04 10:00,,7,',
    '3,4,far too long text,yesterday,angry,x,{bad',
    '4,3,,2024-06-04 10:00,,9999,"{""a"":1}"',
  ].join('\n');

  it('converts each mapped cell, and says what is wrong with each record by line', () => {
    const parsed = parseCsv(csv);
    const rows = checkRows(parsed, autoMap(parsed.headers, reviews), reviews, schema, paris);
    expect(rows[0]).toMatchObject({
      line: 2,
      values: { rating: 5, comment: 'Fine', created_at: '2024-06-04T08:00:00.000Z', mood: 'happy' },
      toOne: { product: { type: 'products', id: '7' } },
      problems: [],
    });
    expect(rows[0]!.values).not.toHaveProperty('id');
    expect(rows[1]!.problems).toEqual([{ column: 'Rating', message: 'Rating is required.' }]);
    expect(rows[2]!.problems.map((p) => p.column)).toEqual([
      'Comment',
      'Created at',
      'Mood',
      'Product',
      'Meta',
    ]);
    expect(rows[2]!.problems[0]!.message).toBe(
      'Comment takes at most 10 characters; you entered 17.',
    );
    expect(rows[3]!.values.meta).toEqual({ a: 1 });

    const ids = relatedIds(rows);
    expect([...ids.get('product')!.ids]).toEqual(['7', '9999']);
    markMissing(rows, 'product', 'Product', new Set(['9999']));
    expect(rows[3]!.problems).toEqual([
      {
        column: 'Product',
        message: 'Product: no record #9999 exists (or your team cannot see it).',
      },
    ]);
    expect(rows[0]!.problems).toEqual([]);
  });
});

describe('runImport', () => {
  const rows = Array.from({ length: 20 }, (_, index) => ({ line: index + 2 }));

  it('creates with a bounded number in flight and reports refusals by line', async () => {
    let inFlight = 0;
    let most = 0;
    const progress: number[] = [];
    const outcome = await runImport({
      rows,
      concurrency: 3,
      create: async (row) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight -= 1;
        if (row.line % 7 === 0) throw new Error(`refused ${row.line}`);
      },
      describe: (error) => (error as Error).message,
      onProgress: (done) => progress.push(done),
    });
    expect(most).toBe(3);
    expect(outcome).toEqual({
      created: 17,
      failed: [
        { line: 7, message: 'refused 7' },
        { line: 14, message: 'refused 14' },
        { line: 21, message: 'refused 21' },
      ],
      notSent: 0,
      stopped: undefined,
    });
    expect(progress.at(-1)).toBe(20);
  });

  it('stops sending when cancelled, and at a refusal that would repeat', async () => {
    const controller = new AbortController();
    let sent = 0;
    const cancelled = await runImport({
      rows,
      concurrency: 2,
      signal: controller.signal,
      create: async () => {
        sent += 1;
        if (sent === 5) controller.abort();
      },
      describe: String,
    });
    expect(cancelled).toMatchObject({ created: 5, notSent: 15, stopped: 'cancelled' });

    const forbidden = await runImport({
      rows,
      concurrency: 1,
      create: async (row) => {
        if (row.line === 4) throw new Error('Forbidden');
      },
      describe: (error) => (error as Error).message,
      fatal: () => true,
    });
    expect(forbidden).toMatchObject({ created: 2, notSent: 17, stopped: 'Forbidden' });
  });
});

describe('failedRowsCsv', () => {
  it('writes the failed rows with their line and reason, quoted as needed', () => {
    const text = failedRowsCsv(
      ['Rating', 'Comment'],
      [
        { line: 9, cells: ['x', 'a, b'], reason: 'Rating: “x” is not a number.' },
        { line: 3, cells: ['9'], reason: 'The agent said "no"' },
      ],
    );
    const back = Papa.parse<string[]>(text).data;
    expect(back).toEqual([
      ['Rating', 'Comment', LINE_COLUMN, REASON_COLUMN],
      ['9', '', '3', 'The agent said "no"'],
      ['x', 'a, b', '9', 'Rating: “x” is not a number.'],
    ]);
  });
});

describe('failedRowsOf', () => {
  it('gathers the dry run refusals, the agent refusals and the records never sent', () => {
    const row = (line: number, problems: { message: string }[] = []) => ({
      line,
      cells: [String(line)],
      values: {},
      toOne: {},
      problems,
    });
    const dryRun = {
      invalid: [row(3, [{ message: 'A.' }, { message: 'B.' }])],
      ready: [row(2), row(4), row(5), row(6)],
    };
    expect(failedRowsOf(dryRun, undefined)).toEqual([{ line: 3, cells: ['3'], reason: 'A. B.' }]);
    const outcome = {
      created: 1,
      failed: [{ line: 4, message: 'Refused.' }],
      notSent: 2,
      stopped: 'cancelled',
    };
    expect(failedRowsOf(dryRun, outcome).map((r) => [r.line, r.reason])).toEqual([
      [3, 'A. B.'],
      [4, 'Refused.'],
      [5, 'Not sent: the import stopped before it.'],
      [6, 'Not sent: the import stopped before it.'],
    ]);
  });
});
