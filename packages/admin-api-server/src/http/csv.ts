import { neutralizeCsvCell } from '@canopy/platform-protocol';
import { stringify, type Stringifier } from 'csv-stringify';

export { neutralizeCsvCell };

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
