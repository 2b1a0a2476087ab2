/**
 * A CSV cell read as the value of its field, as the agent stores it (agent protocol's types):
 * numbers (a dot decimal, or the user's locale's separators), booleans (true/false, yes/no, 1/0),
 * date-times (ISO with or without an offset, or the user's date format; a time without an offset
 * is in the user's time zone), dates (`YYYY-MM-DD` or the user's format), times, enum values
 * (any case), JSON, uuids, and the ids of to-one relations.
 */
import { typeName, type ColumnType, type SchemaField } from '../../../protocol';
import {
  fromWallClock,
  numberInputFormat,
  parseTypedDate,
  userContext,
  type FormatContext,
} from '../../components/format';

export type Converted = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Converted => ({ ok: true, value });
const fail = (message: string): Converted => ({ ok: false, message });

function readNumber(text: string, context: FormatContext): number | null {
  // Spaces (also as thousands groups) and currency signs are not part of the number.
  const compact = text.replace(/[\s\u00a0\u202f\p{Sc}]/gu, '');
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(compact)) return Number(compact);
  const { thousandSeparator, decimalSeparator } = numberInputFormat(undefined, context);
  const local = compact.split(thousandSeparator.trim() || '\u0000').join('');
  const plain = local.replace(decimalSeparator, '.');
  return /^[+-]?\d+(\.\d+)?$/.test(plain) ? Number(plain) : null;
}

const TRUE = new Set(['true', 'yes', 'y', '1', 't', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'f', 'off']);

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Whether these numbers are a real calendar date and time (no 31/02, no 25:00). */
function realDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0) {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    second < 60
  );
}

function readDateTime(text: string, context: FormatContext): string | null {
  const iso = ISO_DATE_TIME.exec(text);
  if (iso) {
    const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = iso;
    if (!realDate(+y!, +mo!, +d!, +h, +mi, +s)) return null;
    const wall = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}`;
    if (zone) {
      const offset =
        zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
      const moment = new Date(`${wall}${offset.length === 3 ? `${offset}:00` : offset}`);
      return Number.isNaN(moment.getTime()) ? null : moment.toISOString();
    }
    return fromWallClock(wall, context);
  }
  return parseTypedDate(text, true, context);
}

function readDateOnly(text: string, context: FormatContext): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return realDate(+iso[1]!, +iso[2]!, +iso[3]!) ? text : null;
  return parseTypedDate(text, false, context);
}

function readTime(text: string): string | null {
  const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!time) return null;
  const [hour, minute, second] = [+time[1]!, +time[2]!, +(time[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return [hour, minute, second].map((part) => String(part).padStart(2, '0')).join(':');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value of a column type read from text (never empty: an empty cell has no value). */
export function convertValue(
  type: ColumnType,
  enums: readonly string[] | null | undefined,
  text: string,
  context: FormatContext = userContext,
): Converted {
  const trimmed = text.trim();
  switch (typeName(type)) {
    case 'Number': {
      const number = readNumber(trimmed, context);
      return number === null ? fail(`“${trimmed}” is not a number.`) : ok(number);
    }
    case 'Boolean': {
      const word = trimmed.toLowerCase();
      if (TRUE.has(word)) return ok(true);
      if (FALSE.has(word)) return ok(false);
      return fail(`“${trimmed}” is not true or false (write true/false, yes/no or 1/0).`);
    }
    case 'Date': {
      const moment = readDateTime(trimmed, context);
      return moment === null
        ? fail(`“${trimmed}” is not a date and time (write 2024-06-04 15:16, in your time zone).`)
        : ok(moment);
    }
    case 'Dateonly': {
      const day = readDateOnly(trimmed, context);
      return day === null ? fail(`“${trimmed}” is not a date (write 2024-06-04).`) : ok(day);
    }
    case 'Time': {
      const time = readTime(trimmed);
      return time === null ? fail(`“${trimmed}” is not a time of day (write 15:16).`) : ok(time);
    }
    case 'Enum': {
      const match = enums?.find((value) => value.toLowerCase() === trimmed.toLowerCase());
      if (match !== undefined || !enums?.length) return ok(match ?? trimmed);
      return fail(`“${trimmed}” is not one of: ${enums.join(', ')}.`);
    }
    case 'Json':
    case 'Object':
    case 'Array':
      try {
        return ok(JSON.parse(trimmed));
      } catch {
        return fail(`“${trimmed.slice(0, 40)}” is not valid JSON.`);
      }
    case 'Uuid':
      return UUID.test(trimmed) ? ok(trimmed.toLowerCase()) : fail(`“${trimmed}” is not a uuid.`);
    default:
      // Text keeps its spaces: they may matter.
      return ok(text);
  }
}

/** A field's value from a cell; a to-one relation's cell is the related record's id. */
export function convertCell(
  field: SchemaField,
  text: string,
  context: FormatContext = userContext,
  /** A to-one relation's: the type of the related collection's primary key. */
  idType?: ColumnType,
): Converted {
  if (idType !== undefined) {
    const id = convertValue(idType, null, text, context);
    if (!id.ok) return fail(`“${text.trim()}” is not an id.`);
    if (typeof id.value === 'number' && !Number.isSafeInteger(id.value))
      return fail(`“${text.trim()}” is not an id.`);
    return ok(String(id.value));
  }
  return convertValue(field.type, field.enums, text, context);
}
