import { stringify, type Stringifier } from 'csv-stringify';

// Cells a spreadsheet reads as a formula (OWASP, CSV injection): =, +, -, @, tab, carriage return.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as spreadsheets may open it safely: one that could start a formula gets a leading `'`
 * and is quoted (OWASP's CSV injection advice); every other value is unchanged.
 */
export function neutralizeCsvCell(value: string): { value: string; quoted?: boolean } {
  return FORMULA_START.test(value) ? { value: `'${value}`, quoted: true } : { value };
}

/**
 * The one CSV writer of the server: an object-mode stream of rows (arrays of cells) in, CSV text
 * with a header row out, every string cell passed through {@link neutralizeCsvCell}.
 */
export function csvWriter(columns: readonly string[]): Stringifier {
  return stringify({
    header: true,
    columns: [...columns],
    cast: { string: (value) => neutralizeCsvCell(value) },
  });
}
