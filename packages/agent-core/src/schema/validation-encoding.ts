import type { ValidationRule } from '../toolkit/schema/field-schema';
import type { SchemaValidation } from './schema-json';

type Bound = 'min' | 'max';

interface Encoded {
  type: string;
  value?: unknown;
  /** For bounds: which side, so duplicates merge to the tightest one. */
  bound?: Bound;
}

/**
 * Encodes a column's validation rules for the front end (protocol §13.4): each rule becomes
 * `{type, value?, message}`, rules the front end cannot express (time-relative ones, `NotEqual`…)
 * are dropped, and rules of one type merge (tightest bound wins; patterns combine).
 */
export function encodeValidations(
  rules: readonly ValidationRule[] | undefined,
): SchemaValidation[] {
  const byType = new Map<string, Encoded>();
  for (const rule of rules ?? []) {
    const encoded = encodeRule(rule);
    if (!encoded) continue;
    const previous = byType.get(encoded.type);
    byType.set(encoded.type, previous ? merge(previous, encoded) : encoded);
  }
  return [...byType.values()].map(({ type, value }) => {
    const validation: SchemaValidation = { message: messageOf(type, value), type };
    if (value !== undefined) validation.value = value;
    return validation;
  });
}

function encodeRule({ operator, value }: ValidationRule): Encoded | null {
  switch (operator) {
    case 'Present':
      return { type: 'is present' };
    case 'GreaterThan':
      return { type: 'is greater than', value, bound: 'min' };
    case 'LessThan':
      return { type: 'is less than', value, bound: 'max' };
    case 'After':
      return { type: 'is after', value, bound: 'min' };
    case 'Before':
      return { type: 'is before', value, bound: 'max' };
    case 'LongerThan':
      return { type: 'is longer than', value, bound: 'min' };
    case 'ShorterThan':
      return { type: 'is shorter than', value, bound: 'max' };
    case 'Contains':
      return { type: 'contains', value };
    case 'Like':
      return typeof value === 'string' ? { type: 'is like', value: likeToRegExp(value) } : null;
    case 'Match':
      return { type: 'is like', value: value instanceof RegExp ? value.source : String(value) };
    default:
      return null;
  }
}

function merge(a: Encoded, b: Encoded): Encoded {
  if (a.bound) {
    const aBigger = compare(a.value, b.value) >= 0;
    return a.bound === 'min' ? (aBigger ? a : b) : aBigger ? b : a;
  }
  if (a.type === 'is like') {
    // Each lookahead searches its pattern anywhere, as RegExp.test does; anchors keep working.
    const search = (pattern: unknown) => `(?=[\\s\\S]*?(?:${String(pattern)}))`;
    return { type: a.type, value: `^${search(a.value)}${search(b.value)}[\\s\\S]*$` };
  }
  return a;
}

function compare(a: unknown, b: unknown): number {
  const left = typeof a === 'string' && !Number.isNaN(Date.parse(a)) ? Date.parse(a) : Number(a);
  const right = typeof b === 'string' && !Number.isNaN(Date.parse(b)) ? Date.parse(b) : Number(b);
  return left - right;
}

/** `%` matches any run of characters and `_` one character; everything else is literal. */
function likeToRegExp(pattern: string): string {
  const body = pattern
    .split('')
    .map((character) =>
      character === '%'
        ? '.*'
        : character === '_'
          ? '.'
          : character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return `^${body}$`;
}

function messageOf(type: string, value: unknown): string {
  const shown = value instanceof Date ? value.toISOString() : String(value);
  switch (type) {
    case 'is present':
      return 'Field is required';
    case 'is greater than':
      return `Value must be greater than ${shown}`;
    case 'is less than':
      return `Value must be lower than ${shown}`;
    case 'is after':
      return `Value must be after ${shown}`;
    case 'is before':
      return `Value must be before ${shown}`;
    case 'is longer than':
      return `Value must be longer than ${shown} characters`;
    case 'is shorter than':
      return `Value must be shorter than ${shown} characters`;
    case 'contains':
      return `Value must contain '${shown}'`;
    default:
      return `Value must match ${shown}`;
  }
}
