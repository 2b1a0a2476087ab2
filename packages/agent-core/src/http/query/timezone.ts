import { ValidationError } from '../../toolkit/errors/canopy-error';

const KNOWN = new Set<string>();

/** The `timezone` parameter of every data route (§1.7): required, an IANA zone name. */
export function parseTimezone(value: string | undefined): string {
  if (value === undefined || value === '') throw new ValidationError('Missing timezone');
  if (KNOWN.has(value)) return value;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw new ValidationError(`Invalid timezone: "${value}"`);
  }
  if (KNOWN.size < 1000) KNOWN.add(value);
  return value;
}
