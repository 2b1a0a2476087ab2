/**
 * Reads a CSV file for an import (Papa Parse: quoted fields, embedded line breaks, the delimiter
 * guessed among comma, semicolon, tab and pipe): the header, then each record with the line of the
 * file it starts on, so every problem can be reported as "line 52" of the file the user holds.
 */
import Papa from 'papaparse';
import { formatNumber } from '../../components/format';

/** The most records one import takes: the browser keeps them all, and sends one call each. */
export const MAX_IMPORT_ROWS = 50_000;

export interface CsvRecord {
  /** The line of the file the record starts on (the header is line 1). */
  line: number;
  cells: string[];
}

export interface ParsedCsv {
  headers: string[];
  records: CsvRecord[];
  /** Records the file itself gets wrong (an unterminated quote, more values than columns). */
  problems: { line: number; message: string }[];
}

/** Line-start bookkeeping: the line of an offset, counted once over the text. */
function lineCounter(text: string) {
  let offset = 0;
  let line = 1;
  return (to: number) => {
    for (; offset < to; offset++) if (text.charCodeAt(offset) === 10) line++;
    return line;
  };
}

/** Where the record after `from` starts: past the blank lines that precede it. */
function recordStart(text: string, from: number, to: number): number {
  let start = from;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) start = i + 1;
    else if (code !== 13 && code !== 32 && code !== 9) break;
  }
  return start;
}

/**
 * A file's text: UTF-8, or Windows-1252 when it is not valid UTF-8 (what Excel's plain "CSV"
 * writes on Windows), so accented letters survive either way.
 */
export function decodeCsv(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export function parseCsv(input: string): ParsedCsv {
  // A UTF-8 byte-order mark (Excel writes one) is not part of the first column's name.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const lineAt = lineCounter(text);
  const rows: CsvRecord[] = [];
  const problems: ParsedCsv['problems'] = [];
  let previous = 0;
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t', '|'],
    step: (result, parser) => {
      const line = lineAt(recordStart(text, previous, result.meta.cursor));
      previous = result.meta.cursor;
      for (const error of result.errors) {
        // A one-column file has no delimiter to find: not a problem of the file.
        if (error.code !== 'UndetectableDelimiter')
          problems.push({ line, message: csvProblem(error) });
      }
      // A file of mixed line ends (\n guessed, one \r\n line): the \r is not part of the value.
      const cells = result.data;
      if (cells.length && cells[cells.length - 1]!.endsWith('\r'))
        cells[cells.length - 1] = cells[cells.length - 1]!.slice(0, -1);
      rows.push({ line, cells });
      if (rows.length > MAX_IMPORT_ROWS + 1) parser.abort();
    },
  });
  const [header, ...records] = rows;
  const headers = (header?.cells ?? []).map((name) => name.trim());
  if (records.length > MAX_IMPORT_ROWS) {
    throw new Error(
      `The file has more than ${formatNumber(MAX_IMPORT_ROWS)} records; split it into smaller files.`,
    );
  }
  for (const record of records) {
    const extra = record.cells.slice(headers.length).filter((cell) => cell.trim() !== '');
    if (extra.length > 0) {
      problems.push({
        line: record.line,
        message: `It has ${record.cells.length} values but the header names ${headers.length} columns.`,
      });
    }
  }
  return { headers, records, problems };
}

function csvProblem(error: Papa.ParseError): string {
  if (error.code === 'MissingQuotes')
    return 'A quoted value is never closed (a " is missing), so the rest of the file was read into it.';
  if (error.code === 'InvalidQuotes') return 'A value has a stray " inside it.';
  return error.message;
}
