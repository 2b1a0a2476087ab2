/**
 * What a display widget of a team's layout (issue 32, public API §7) makes of a cell's value:
 * a plain description ({@link WidgetView}) that `WidgetCell.tsx` renders. Pure: the locale, the
 * time zone and the time "now" are arguments. `undefined` means "no widget applies": the cell
 * renders as it does without a layout (unknown widget types, `text`, values of the wrong kind).
 */
import type { LayoutWidget } from '@canopy/platform-protocol';
import {
  cached,
  formatMoney,
  formatNumber,
  userContext,
  type FormatContext,
} from '../components/format';
import { safeDownload, safeImage, safeLink } from './safe-url';

/**
 * The address rules of safe-url.ts, for the widgets loaded lazily (Markdown.tsx,
 * more-widgets.ts): taken from here, safe-url.ts stays in the first screen's script rather than
 * becoming a script of its own.
 */
export const addressRules = { safeDownload, safeImage, safeLink };

export type WidgetView =
  | { kind: 'text'; text: string }
  | { kind: 'badge'; text: string; colour: string | undefined }
  | { kind: 'image'; src: string; height: number }
  | { kind: 'markdown'; source: string }
  | { kind: 'progress'; percent: number; text: string }
  | { kind: 'rating'; value: number; max: number }
  | { kind: 'colour'; colour: string }
  | { kind: 'switch'; on: boolean; text: string }
  | { kind: 'link'; href: string; text: string; newTab: boolean }
  | { kind: 'json'; text: string }
  /**
   * Widgets drawn by a module loaded with their first cell (MoreWidgetCell.tsx, which reads the
   * value with more-widgets.ts): `rich-text`, `file`, `map-point`.
   */
  | { kind: 'more'; widget: LayoutWidget; value: unknown };

export interface WidgetContext extends FormatContext {
  /** Epoch milliseconds "now", for relative times. */
  now: number;
}

const setting = <T>(widget: LayoutWidget, name: string, check: (value: unknown) => boolean) => {
  const value = widget.settings?.[name];
  return check(value) ? (value as T) : undefined;
};
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown) => typeof value === 'string' && value !== '';

/** A number, or a text that reads as one; null otherwise. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

function toDate(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const COLOUR = /^#[0-9a-f]{6}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** `3 days ago`, `in 2 hours`: the largest unit that fits, in the user's locale. */
export function relativeTime(date: Date, now: number, locale: string): string {
  const seconds = (date.getTime() - now) / 1000;
  const format = cached(
    `rt|${locale}`,
    () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
  );
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return format.format(Math.round(seconds / size), unit);
    }
  }
  return format.format(0, 'second');
}

/** A Unicode date pattern (`yyyy-MM-dd HH:mm`) written with the date's parts in `timeZone`. */
export function formatPattern(date: Date, pattern: string, timeZone: string): string {
  const parts = Object.fromEntries(
    cached(
      `pattern|${timeZone}`,
      () =>
        new Intl.DateTimeFormat('en-US', {
          timeZone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        }),
    )
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const tokens: Record<string, string> = {
    yyyy: parts.year ?? '',
    yy: (parts.year ?? '').slice(-2),
    MM: parts.month ?? '',
    dd: parts.day ?? '',
    HH: parts.hour ?? '',
    mm: parts.minute ?? '',
    ss: parts.second ?? '',
  };
  return pattern.replace(/yyyy|yy|MM|dd|HH|mm|ss/g, (token) => tokens[token] ?? token);
}

function numberView(widget: LayoutWidget, number: number, context: FormatContext): string {
  const decimals = setting<number>(widget, 'decimals', isNumber);
  const format = setting<string>(widget, 'format', isString) ?? 'grouped';
  const options: Intl.NumberFormatOptions = {
    useGrouping: format !== 'plain',
    ...(format === 'compact' ? { notation: 'compact' } : {}),
    ...(format === 'scientific' ? { notation: 'scientific' } : {}),
    ...(decimals === undefined
      ? {}
      : { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  };
  const text = cached(
    `widget-number|${context.locale}|${format}|${decimals ?? ''}`,
    () => new Intl.NumberFormat(context.locale, options),
  ).format(number);
  return `${setting<string>(widget, 'prefix', isString) ?? ''}${text}${setting<string>(widget, 'suffix', isString) ?? ''}`;
}

const DURATION_SECONDS: Record<string, number> = {
  milliseconds: 0.001,
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 24 * 3600,
};
const DURATION_PARTS: [unit: Intl.NumberFormatOptions['unit'], seconds: number][] = [
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * A length of time in its two largest units, in the user's locale (`2 days, 3 hr`, `1 min, 5 sec`,
 * `350 ms` under a second): what an operator reads at a glance in a table cell.
 */
export function durationText(amount: number, unit: string, locale: string): string {
  const total = Math.abs(amount) * (DURATION_SECONDS[unit] ?? 1);
  const sign = amount < 0 ? '−' : '';
  const unitFormat = (name: string) =>
    cached(
      `duration|${locale}|${name}`,
      () => new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }),
    );
  if (total > 0 && total < 1)
    return sign + unitFormat('millisecond').format(Math.round(total * 1000));
  const parts: string[] = [];
  let rest = Math.round(total);
  for (const [name, size] of DURATION_PARTS) {
    if (rest >= size || (name === 'second' && parts.length === 0)) {
      const count = Math.floor(rest / size);
      rest -= count * size;
      parts.push(unitFormat(name!).format(count));
    }
    if (parts.length === 2) break;
  }
  return sign + parts.join(', ');
}

/** Fills `{{field}}` placeholders of a link template with the record's values (URL-encoded). */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name] ?? '')),
  );
}

/**
 * The view of `value` (a record's field) under `widget`, or `undefined` for today's cell. Empty
 * values (null, undefined, '') are always today's cell (the dimmed dash).
 */
export function widgetView(
  widget: LayoutWidget | undefined,
  value: unknown,
  record: Record<string, unknown> = {},
  context: WidgetContext = { ...userContext, now: Date.now() },
): WidgetView | undefined {
  if (!widget || value === null || value === undefined || value === '') return undefined;
  const number = toNumber(value);
  switch (widget.type) {
    case 'currency': {
      const code =
        setting<string>(widget, 'currency', isString) ??
        (() => {
          const field = setting<string>(widget, 'currencyField', isString);
          const held = field ? record[field] : undefined;
          return typeof held === 'string' && /^[A-Za-z]{3}$/.test(held)
            ? held.toUpperCase()
            : undefined;
        })();
      if (number === null || !code) return undefined;
      const decimals = setting<number>(widget, 'decimals', isNumber);
      const rounded = decimals === undefined ? number : Number(number.toFixed(decimals));
      return { kind: 'text', text: formatMoney(rounded, code, context) };
    }
    case 'badge': {
      const colours = (widget.settings?.colours ?? {}) as Record<string, unknown>;
      const own = colours[String(value)];
      const colour = [own, widget.settings?.defaultColour].find(
        (candidate): candidate is string => typeof candidate === 'string' && COLOUR.test(candidate),
      );
      return { kind: 'badge', text: String(value), colour };
    }
    case 'image': {
      const src = safeImage(value);
      return src
        ? { kind: 'image', src, height: setting(widget, 'height', isNumber) ?? 32 }
        : undefined;
    }
    case 'markdown':
      return typeof value === 'string' ? { kind: 'markdown', source: value } : undefined;
    case 'duration': {
      const unit = setting<string>(widget, 'unit', isString) ?? 'seconds';
      return number === null
        ? undefined
        : { kind: 'text', text: durationText(number, unit, context.locale) };
    }
    case 'email':
      return typeof value === 'string' && EMAIL.test(value.trim())
        ? { kind: 'link', href: `mailto:${value.trim()}`, text: value.trim(), newTab: false }
        : undefined;
    case 'url': {
      const href = safeLink(value);
      return href
        ? { kind: 'link', href, text: href, newTab: widget.settings?.openInNewTab !== false }
        : undefined;
    }
    case 'phone': {
      const dialled = typeof value === 'string' ? value.replace(/[^\d+]/g, '') : '';
      return /^\+?\d{3,}$/.test(dialled)
        ? { kind: 'link', href: `tel:${dialled}`, text: String(value), newTab: false }
        : undefined;
    }
    case 'relative-time': {
      const date = toDate(value);
      return date
        ? { kind: 'text', text: relativeTime(date, context.now, context.locale) }
        : undefined;
    }
    case 'datetime': {
      const date = toDate(value);
      const pattern = setting<string>(widget, 'format', isString);
      if (!date || !pattern) return undefined;
      const timeZone = setting<string>(widget, 'timeZone', isString) ?? context.timeZone;
      try {
        return { kind: 'text', text: formatPattern(date, pattern, timeZone) };
      } catch {
        return { kind: 'text', text: formatPattern(date, pattern, context.timeZone) };
      }
    }
    case 'percentage': {
      if (number === null) return undefined;
      const decimals = setting<number>(widget, 'decimals', isNumber) ?? 0;
      const ratio = widget.settings?.ratio === true ? number : number / 100;
      const text = cached(
        `widget-percent|${context.locale}|${decimals}`,
        () =>
          new Intl.NumberFormat(context.locale, {
            style: 'percent',
            minimumFractionDigits: decimals,
            maximumFractionDigits: decimals,
          }),
      ).format(ratio);
      return { kind: 'text', text };
    }
    case 'progress': {
      if (number === null) return undefined;
      const max = setting<number>(widget, 'max', (v) => isNumber(v) && (v as number) > 0) ?? 100;
      const percent = Math.max(0, Math.min(100, (number / max) * 100));
      return { kind: 'progress', percent, text: `${formatNumber(number, context)} / ${max}` };
    }
    case 'rating': {
      if (number === null) return undefined;
      const max = setting<number>(widget, 'max', isNumber) ?? 5;
      return { kind: 'rating', value: Math.max(0, Math.min(max, Math.round(number))), max };
    }
    case 'colour':
      return typeof value === 'string' && COLOUR.test(value.trim())
        ? { kind: 'colour', colour: value.trim() }
        : undefined;
    case 'switch': {
      if (typeof value !== 'boolean') return undefined;
      const label = setting<string>(widget, value ? 'trueLabel' : 'falseLabel', isString);
      return { kind: 'switch', on: value, text: label ?? (value ? 'Yes' : 'No') };
    }
    case 'number':
      return number === null
        ? undefined
        : { kind: 'text', text: numberView(widget, number, context) };
    case 'link': {
      const template = setting<string>(widget, 'urlTemplate', isString);
      if (!template) return undefined;
      const href = safeLink(fillTemplate(template, record), { mail: true, phone: true });
      if (!href) return undefined;
      return {
        kind: 'link',
        href,
        text: setting<string>(widget, 'label', isString) ?? String(value),
        newTab: true,
      };
    }
    case 'json': {
      const collapsed = widget.settings?.collapsed === true;
      try {
        return { kind: 'json', text: JSON.stringify(value, null, collapsed ? 0 : 2) };
      } catch {
        return undefined;
      }
    }
    case 'rich-text':
      return typeof value === 'string' ? { kind: 'more', widget, value } : undefined;
    case 'file':
    case 'map-point':
      return { kind: 'more', widget, value };
    default:
      return undefined;
  }
}
