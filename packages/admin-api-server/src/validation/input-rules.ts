import { invalidParameter } from '../errors';
import type { JsonSchema } from './ajv';

/**
 * The input rules every route shares: ids are PostgreSQL `integer`s (1 to 2,147,483,647), log ids
 * `bigint`s, instants ISO 8601 date-times of years 0001 to 9999 without leap seconds, and no
 * string anywhere holds a NUL character. Values outside them are refused with a 4xx here, before
 * they reach the database.
 */
export const INT4_MAX = 2_147_483_647;
/** The largest PostgreSQL `bigint`. */
export const INT8_MAX = 9_223_372_036_854_775_807n;

/** JSON Schema of a positive `integer` id. */
export const ID_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, maximum: INT4_MAX };

const ID_TEXT = /^[1-9]\d{0,9}$/;

/** A positive int4 id from text (a path segment, a form field), or `undefined`. */
export function readId(raw: unknown): number | undefined {
  if (typeof raw === 'number')
    return Number.isInteger(raw) && raw >= 1 && raw <= INT4_MAX ? raw : undefined;
  if (typeof raw !== 'string' || !ID_TEXT.test(raw)) return undefined;
  const id = Number(raw);
  return id <= INT4_MAX ? id : undefined;
}

/** A positive int4 id of the path or query parameter `name`; a 400 naming it otherwise. */
export function idParam(name: string, raw: unknown): number {
  const id = readId(raw);
  if (id === undefined)
    throw invalidParameter(name, `must be an integer between 1 and ${INT4_MAX}`);
  return id;
}

/** A positive `bigint` id as decimal text (activity-log ids), or `undefined`. */
export function readBigId(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,18}$/.test(raw)) return undefined;
  return BigInt(raw) <= INT8_MAX ? raw : undefined;
}

// Years 0001 to 9999, a time zone, no leap second (PostgreSQL and JavaScript have none).
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
/** The earliest and latest instants accepted: years 0001 to 9999 in every time zone. */
export const EARLIEST_INSTANT_MS = new Date('0001-01-02T00:00:00Z').getTime();
export const LATEST_INSTANT_MS = new Date('9999-12-30T23:59:59.999Z').getTime();

/** True for an ISO 8601 date-time with a time zone that PostgreSQL and JavaScript both hold. */
export function isInstant(value: string): boolean {
  return parseInstant(value) !== undefined;
}

/** The instant of an ISO 8601 date-time (see {@link isInstant}), or `undefined`. */
export function parseInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = INSTANT.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const [offsetHours, offsetMinutes] = [Number(match[8] ?? 0), Number(match[9] ?? 0)];
  if (year! < 1 || month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59) {
    return undefined;
  }
  if (second! > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const calendar = new Date(0);
  calendar.setUTCFullYear(year!, month! - 1, day!);
  if (calendar.getUTCDate() !== day) return undefined; // 31 April, 29 February of a common year
  const instant = new Date(value);
  const time = instant.getTime();
  if (!Number.isFinite(time) || time < EARLIEST_INSTANT_MS || time > LATEST_INSTANT_MS)
    return undefined;
  return instant;
}

/** True when `value` holds a NUL character, which PostgreSQL text cannot store. */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}
