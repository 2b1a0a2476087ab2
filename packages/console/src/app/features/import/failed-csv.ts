/**
 * The rows an import did not create, as a CSV the user can fix and import again: the file's own
 * columns as they were, then the line each came from and why it failed (columns no field is
 * named after, so a new import ignores them).
 */
import Papa from 'papaparse';
import type { ImportOutcome } from './run-import';
import { problemText, type ImportRow } from './validate';

export interface FailedRow {
  line: number;
  cells: readonly string[];
  reason: string;
}

export const LINE_COLUMN = 'Import line';
export const REASON_COLUMN = 'Import problem';

export function failedRowsCsv(headers: readonly string[], rows: readonly FailedRow[]): string {
  const sorted = [...rows].sort((a, b) => a.line - b.line);
  return Papa.unparse({
    fields: [...headers, LINE_COLUMN, REASON_COLUMN],
    data: sorted.map((row) => [
      ...headers.map((_, index) => row.cells[index] ?? ''),
      String(row.line),
      row.reason,
    ]),
  });
}

/**
 * The records of a file that were not created: those the dry run refused, those the agent
 * refused, and those never sent (records go in file order, so they are the last ready ones).
 */
export function failedRowsOf(
  dryRun: { ready: readonly ImportRow[]; invalid: readonly ImportRow[] },
  outcome: ImportOutcome | undefined,
): FailedRow[] {
  const rows: FailedRow[] = dryRun.invalid.map((row) => ({
    line: row.line,
    cells: row.cells,
    reason: problemText(row.problems),
  }));
  if (!outcome) return rows;
  const byLine = new Map(dryRun.ready.map((row) => [row.line, row]));
  for (const failure of outcome.failed) {
    rows.push({
      line: failure.line,
      cells: byLine.get(failure.line)?.cells ?? [],
      reason: failure.message,
    });
  }
  for (const row of dryRun.ready.slice(dryRun.ready.length - outcome.notSent)) {
    rows.push({
      line: row.line,
      cells: row.cells,
      reason: 'Not sent: the import stopped before it.',
    });
  }
  return rows;
}

/** `reviews-import-failed-2026-11-28.csv`. */
export function failedRowsFilename(collection: string, now: Date): string {
  return `${collection}-import-failed-${now.toISOString().slice(0, 10)}.csv`;
}
