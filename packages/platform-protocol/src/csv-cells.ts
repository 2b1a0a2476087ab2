/** Characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell of a CSV export as spreadsheets may open it safely: one that could start a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return) gets a leading `'` and is quoted (OWASP's CSV
 * injection advice); every other value is unchanged. The result is what `csv-stringify`'s `cast`
 * option takes. Both CSV exports (the agent's and the platform's) pass their text cells through it.
 *
 * @example
 * neutralizeCsvCell('=HYPERLINK("https://evil.example")'); // { value: `'=HYPERLINK(...)`, quoted: true }
 * neutralizeCsvCell('plain = text'); // { value: 'plain = text' }
 */
export function neutralizeCsvCell(value: string): { value: string; quoted?: boolean } {
  return FORMULA_START.test(value) ? { value: `'${value}`, quoted: true } : { value };
}
