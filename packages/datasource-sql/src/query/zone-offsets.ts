import { DateTime } from 'luxon';

/** A span of constant UTC offset: from the previous segment's end until `until` (exclusive). */
export interface OffsetSegment {
  /** End of the segment in epoch milliseconds (`Infinity` for the last one). */
  until: number;
  offsetMinutes: number;
}

const WEEK = 7 * 24 * 3600 * 1000;
const cache = new Map<string, OffsetSegment[]>();

function offsetAt(zone: string, millis: number): number {
  return DateTime.fromMillis(millis, { zone }).offset;
}

/** The first instant in `(low, high]` whose offset differs from the offset at `low`. */
function transition(zone: string, low: number, high: number): number {
  const before = offsetAt(zone, low);
  let lo = low;
  let hi = high;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 2 / 60_000) * 60_000;
    if (offsetAt(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The UTC offsets of an IANA zone from 1970 until 30 years from now, as segments between
 * transitions (daylight saving changes). Used where the database has no time zone database
 * (MariaDB without loaded zone tables, SQLite); instants outside the range use the nearest
 * segment's offset.
 */
export function zoneOffsets(zone: string): OffsetSegment[] {
  const known = cache.get(zone);
  if (known) return known;
  const start = Date.UTC(1970, 0, 1);
  const end = Date.UTC(new Date().getUTCFullYear() + 30, 0, 1);
  const segments: OffsetSegment[] = [];
  let current = offsetAt(zone, start);
  for (let time = start; time < end; time += WEEK) {
    const next = Math.min(time + WEEK, end);
    if (offsetAt(zone, next) !== current) {
      const at = transition(zone, time, next);
      segments.push({ until: at, offsetMinutes: current });
      current = offsetAt(zone, at);
    }
  }
  segments.push({ until: Infinity, offsetMinutes: current });
  cache.set(zone, segments);
  return segments;
}
