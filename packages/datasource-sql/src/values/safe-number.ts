const SHORT_DECIMAL = /^-?\d{1,16}(\.\d{1,16})?$/;

/**
 * Reads a decimal string from the database as a JS number when the number represents it exactly,
 * and keeps the string otherwise (bigint above 2^53, numeric with more digits than a double).
 *
 * @example
 * toSafeNumber('12.50'); // 12.5
 * toSafeNumber('9007199254740993'); // '9007199254740993'
 */
export function toSafeNumber(text: string): number | string {
  // Up to 15 significant digits a double always holds the decimal exactly; text of at most 15
  // characters cannot have more (the common case: no digit counting needed).
  if (
    SHORT_DECIMAL.test(text) &&
    (text.length <= 15 || text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15)
  ) {
    const short = Number(text);
    return short === 0 ? 0 : short;
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return text;
  if (canonicalDecimal(String(value)) !== canonicalDecimal(text)) return text;
  return value === 0 ? 0 : value;
}

/** Removes what does not change a decimal's value: sign `+`, leading and trailing zeros. */
function canonicalDecimal(text: string): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return `invalid:${text}`;
  const integer = (match[2] ?? '').replace(/^0+/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const sign = match[1] === '-' && (integer !== '0' || fraction !== '') ? '-' : '';
  return fraction ? `${sign}${integer}.${fraction}` : `${sign}${integer}`;
}
