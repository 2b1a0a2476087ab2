import { ValidationError } from '../../toolkit/errors/canopy-error';
import { isCanonicalTimeZone } from '../../toolkit/time-zone-names';

const KNOWN = new Set<string>();

/**
 * Whether `value` is a time zone the runtime knows: a canonical name, or a name
 * `Intl.DateTimeFormat` accepts (aliases such as `UTC` or `US/Pacific`), constructed only for
 * those (see {@link isCanonicalTimeZone}).
 */
function isTimeZone(value: string): boolean {
  if (isCanonicalTimeZone(value)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The `timezone` parameter of every data route (§1.7): required, an IANA zone name. */
export function parseTimezone(value: string | undefined): string {
  if (value === undefined || value === '') throw new ValidationError('Missing timezone');
  if (KNOWN.has(value)) return value;
  if (!isTimeZone(value)) throw new ValidationError(`Invalid timezone: "${value}"`);
  if (KNOWN.size < 1000) KNOWN.add(value);
  return value;
}
