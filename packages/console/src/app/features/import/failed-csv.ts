/**
 * The rows an import did not create, as a CSV the user can fix and import again: the file's own
 * columns as they were, then the line each came from and why it failed (columns no field is
 * named after, so a new import ignores them).
 */
import Papa from 'papaparse';

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

/** `reviews-import-failed-2026-11-28.csv`. */
export function failedRowsFilename(collection: string, now: Date): string {
  return `${collection}-import-failed-${now.toISOString().slice(0, 10)}.csv`;
}
