/**
 * How the Console writes and reads every value it shows or edits — list cells, the record page,
 * form inputs, filter values, History, charts and activity — so one date, number or amount reads
 * the same everywhere. It follows the user's locale and time zone: the browser's by default (the
 * time zone is also the `timezone` the Console sends the agent). Dates are written with the
 * locale's numeric pattern (`06/04/2024, 03:16 PM` in en-US, `04/06/2024 15:16` in fr-FR,
 * `04.06.2024, 15:16` in de-DE) because an input can then accept exactly what the list shows.
 */
import dayjs from 'dayjs';
import timezonePlugin from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { typeName, type ColumnType, type SchemaField } from '../../protocol';

dayjs.extend(utc);
dayjs.extend(timezonePlugin);

/** The user's locale and time zone; each function takes them, the browser's by default. */
export interface FormatContext {
  locale: string;
  timeZone: string;
}

export const userContext: FormatContext = {
  locale: typeof navigator === 'undefined' ? 'en-US' : navigator.language || 'en-US',
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
};

type IntlFormat = Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat;

const cache = new Map<string, IntlFormat>();

/**
 * The formatter of `key`, made once: a table page formats hundreds of cells, and making an Intl
 * formatter costs far more than using one. Keys name every option the formatter is made with.
 */
export function cached<T extends IntlFormat>(key: string, make: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (!format) cache.set(key, (format = make()));
  return format;
}

const DATE_PARTS = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
const TIME_PARTS = { hour: '2-digit', minute: '2-digit' } as const;

function dateTimeFormat(context: FormatContext, withTime: boolean, timeZone: string) {
  return cached(
    `dt|${context.locale}|${timeZone}|${withTime}`,
    () =>
      new Intl.DateTimeFormat(context.locale, {
        ...DATE_PARTS,
        ...(withTime ? TIME_PARTS : {}),
        timeZone,
      }),
  );
}

/** Spaces ICU writes (narrow and plain no-break spaces) as the space a person types. */
function plainSpaces(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, ' ');
}

function parseDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date-time (ISO text or Date) in the user's time zone: `06/04/2024, 03:16 PM` (en-US). */
export function formatDateTime(value: unknown, context: FormatContext = userContext): string {
  const date = parseDate(value);
  if (!date) return value === null || value === undefined ? '' : String(value);
  return plainSpaces(dateTimeFormat(context, true, context.timeZone).format(date));
}

/** A calendar date (`YYYY-MM-DD`, no time zone): `06/04/2024` (en-US), `04.06.2024` (de-DE). */
export function formatDateOnly(value: unknown, context: FormatContext = userContext): string {
  const text = String(value ?? '');
  const date = parseDate(`${text.slice(0, 10)}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !date) return text;
  return plainSpaces(dateTimeFormat(context, false, 'UTC').format(date));
}

/** A time of day (`HH:mm[:ss]`): `03:16 PM` (en-US), `15:16` (fr-FR). */
export function formatTime(value: unknown, context: FormatContext = userContext): string {
  const text = String(value ?? '');
  const date = parseDate(`1970-01-01T${text.slice(0, 8)}Z`);
  if (!date) return text;
  const format = cached(
    `t|${context.locale}`,
    () => new Intl.DateTimeFormat(context.locale, { ...TIME_PARTS, timeZone: 'UTC' }),
  );
  return plainSpaces(format.format(date));
}

const TOKENS: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {
  year: 'YYYY',
  month: 'MM',
  day: 'DD',
  minute: 'mm',
  dayPeriod: 'A',
};

/**
 * The dayjs pattern of what {@link formatDateTime} (or {@link formatDateOnly}) writes in this
 * locale (`MM/DD/YYYY[, ]hh:mm[ ]A` in en-US), for reading typed text back.
 */
export function datePattern(withTime: boolean, context: FormatContext = userContext): string {
  const format = dateTimeFormat(context, withTime, 'UTC');
  const twelveHours = /h1[12]/.test(format.resolvedOptions().hourCycle ?? '');
  return format
    .formatToParts(new Date(Date.UTC(2024, 5, 4, 15, 16)))
    .map((part) => {
      if (part.type === 'hour') return twelveHours ? 'hh' : 'HH';
      const token = TOKENS[part.type];
      return token ?? `[${plainSpaces(part.value)}]`;
    })
    .join('');
}

/**
 * Reads a date the user typed in their locale's order (as the Console writes it; any separators,
 * leading zeros optional, the time optional): the ISO date-time of that moment in their time
 * zone, or the `YYYY-MM-DD` calendar date; `null` when the text is not such a date.
 */
export function parseTypedDate(
  text: string,
  withTime: boolean,
  context: FormatContext = userContext,
): string | null {
  const numbers = text.match(/\d+/g) ?? [];
  const order = (
    datePattern(withTime, context)
      .replace(/\[[^\]]*\]/g, ' ')
      .match(/[A-Za-z]+/g) ?? []
  ).filter((token) => token !== 'A');
  if (numbers.length < 3 || numbers.length > (withTime ? 6 : 3)) return null;
  const parts: Record<string, number> = { HH: 0, hh: 0, mm: 0, ss: 0 };
  order.forEach((token, index) => {
    if (numbers[index] !== undefined) parts[token] = Number(numbers[index]);
  });
  if (numbers[5] !== undefined) parts.ss = Number(numbers[5]);
  let hour = parts.HH! || parts.hh!;
  if (order.includes('hh')) {
    const pm = /p\.?\s*m/i.test(text);
    if (hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  const { YYYY: year, MM: month, DD: day } = parts;
  if (!year || !month || !day || year < 1000) return null;
  const wall = dayjs.utc(Date.UTC(year, month - 1, day, hour, parts.mm, parts.ss));
  // Rejects an overflow (31/02, 25:00): the date must read back as typed.
  if (wall.year() !== year || wall.month() !== month - 1 || wall.date() !== day) return null;
  if (wall.hour() !== hour || wall.minute() !== parts.mm || parts.ss! > 59) return null;
  if (!withTime) return wall.format('YYYY-MM-DD');
  return fromWallClock(wall.format('YYYY-MM-DDTHH:mm:ss'), context);
}

/** The calendar date and time of day a moment has in the user's time zone (for a date picker). */
export function wallClock(iso: string, context: FormatContext = userContext): dayjs.Dayjs {
  return dayjs(iso).tz(context.timeZone);
}

/** The moment of a wall-clock date-time (`YYYY-MM-DD HH:mm:ss`) in the user's time zone. */
export function fromWallClock(text: string, context: FormatContext = userContext): string {
  return dayjs.tz(text, context.timeZone).toISOString();
}

function numberFormat(context: FormatContext, currency?: string): Intl.NumberFormat {
  return cached(`n|${context.locale}|${currency ?? ''}`, () => {
    try {
      if (currency) return new Intl.NumberFormat(context.locale, { style: 'currency', currency });
    } catch {
      // Not a currency code (an agent's mistake): the amount reads as a plain number.
    }
    return new Intl.NumberFormat(context.locale, { maximumFractionDigits: 6 });
  });
}

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean')
    return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/** A number with the locale's grouping and decimal mark: `1,353.62`, `1 353,62`, `1.353,62`. */
export function formatNumber(value: unknown, context: FormatContext = userContext): string {
  const number = toNumber(value);
  return number === null ? String(value ?? '') : plainSpaces(numberFormat(context).format(number));
}

/** An amount of money in `currency` (ISO 4217): `€1,353.62` (en-US), `1 353,62 €` (fr-FR). */
export function formatMoney(
  value: unknown,
  currency: string,
  context: FormatContext = userContext,
): string {
  const number = toNumber(value);
  if (number === null) return String(value ?? '');
  return plainSpaces(numberFormat(context, currency).format(number));
}

/**
 * What a number input needs to show and read numbers as {@link formatNumber} and
 * {@link formatMoney} write them: the separators, and the currency sign before or after.
 */
export function numberInputFormat(
  currency: string | undefined,
  context: FormatContext = userContext,
): {
  thousandSeparator: string;
  decimalSeparator: string;
  prefix?: string;
  suffix?: string;
  decimalScale?: number;
  fixedDecimalScale?: boolean;
} {
  const parts = numberFormat(context, currency).formatToParts(-1234567.5);
  const find = (type: string) => parts.find((part) => part.type === type)?.value;
  const result: ReturnType<typeof numberInputFormat> = {
    thousandSeparator: plainSpaces(find('group') ?? ','),
    decimalSeparator: find('decimal') ?? '.',
  };
  const sign = parts.findIndex((part) => part.type === 'currency');
  if (currency && sign >= 0) {
    const first = parts.findIndex((part) => part.type === 'integer');
    const symbol = plainSpaces(parts[sign]!.value);
    if (sign < first) result.prefix = `${symbol}`;
    else result.suffix = ` ${symbol}`;
    result.decimalScale = numberFormat(context, currency).resolvedOptions().maximumFractionDigits;
    result.fixedDecimalScale = true;
  }
  return result;
}

/** A JSON value's structure, for a readable nested display (never `[object Object]`). */
export type JsonShape =
  | { kind: 'scalar'; text: string }
  | { kind: 'list'; items: JsonShape[] }
  | { kind: 'object'; entries: [string, JsonShape][] };

export function jsonShape(value: unknown, context: FormatContext = userContext): JsonShape {
  if (Array.isArray(value))
    return { kind: 'list', items: value.map((item) => jsonShape(item, context)) };
  if (value !== null && typeof value === 'object')
    return {
      kind: 'object',
      entries: Object.entries(value).map(([key, item]) => [key, jsonShape(item, context)]),
    };
  if (value === null || value === undefined) return { kind: 'scalar', text: '—' };
  if (typeof value === 'number') return { kind: 'scalar', text: formatNumber(value, context) };
  if (typeof value === 'boolean') return { kind: 'scalar', text: value ? 'Yes' : 'No' };
  return { kind: 'scalar', text: String(value) };
}

/** A JSON value on one line, for a cell or a log: `city: Paris, country: FR`; `a, b` for a list. */
export function formatJsonInline(value: unknown, context: FormatContext = userContext): string {
  const nested = (shape: JsonShape): string =>
    shape.kind === 'object'
      ? `{${write(shape)}}`
      : shape.kind === 'list'
        ? `[${write(shape)}]`
        : write(shape);
  const write = (shape: JsonShape): string => {
    switch (shape.kind) {
      case 'scalar':
        return shape.text;
      case 'list':
        return shape.items.map(nested).join(', ');
      case 'object':
        return shape.entries.map(([key, item]) => `${key}: ${nested(item)}`).join(', ');
    }
  };
  return write(jsonShape(value, context));
}

/** Enough of a schema field to format its values (a `currency` display setting, if any). */
export interface FormattedField {
  type: string;
  isPrimaryKey?: boolean;
  currency?: string | null;
}

/**
 * A field's value as text, as every part of the Console writes it: dates in the user's time
 * zone, numbers and amounts in their locale, JSON as readable structure; `—` when empty.
 */
export function formatValue(
  field: FormattedField,
  value: unknown,
  context: FormatContext = userContext,
): string {
  if (value === null || value === undefined || value === '') return '—';
  switch (field.type) {
    case 'Date':
      return formatDateTime(value, context);
    case 'Dateonly':
      return formatDateOnly(value, context);
    case 'Time':
      return formatTime(value, context);
    case 'Number':
      if (field.isPrimaryKey) return String(value);
      return field.currency
        ? formatMoney(value, field.currency, context)
        : formatNumber(value, context);
    case 'Boolean':
      return value ? 'Yes' : 'No';
    default:
      return typeof value === 'object' ? formatJsonInline(value, context) : String(value);
  }
}

/** The formatting of a schema field's values (an array's items: the item type's). */
export function formattedField(field: SchemaField): FormattedField {
  return { type: typeName(field.type), isPrimaryKey: field.isPrimaryKey, currency: field.currency };
}

/** The type of an array field's items (`['Number']` → `Number`), `Json` for anything else. */
export function itemType(type: ColumnType): string {
  return Array.isArray(type) && typeof type[0] === 'string' ? typeName(type[0]) : 'Json';
}

/** A schema field's value as text ({@link formatValue}); an array's items each by their type. */
export function formatFieldValue(
  field: SchemaField,
  value: unknown,
  context: FormatContext = userContext,
): string {
  if (Array.isArray(value) && Array.isArray(field.type)) {
    if (value.length === 0) return '—';
    const item = { type: itemType(field.type), currency: field.currency };
    return value.map((one) => formatValue(item, one, context)).join(', ');
  }
  return formatValue(formattedField(field), value, context);
}

/**
 * How a person is named everywhere (History, activity, admin log): their full name, else their
 * user name, else the name part of their e-mail (`admin` for admin@shop.example). Show the
 * e-mail on hover.
 */
export function personName(person: {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
  email?: string | null;
}): string {
  const full = [person.firstName, person.lastName].filter(Boolean).join(' ').trim();
  return full || person.username || person.email?.split('@')[0] || '';
}
