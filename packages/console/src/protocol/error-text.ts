/**
 * The one place where the agent's and the platform's error messages become words for the person
 * using the console. The messages stay as they are on the wire (clients and tests read them); this
 * module rewrites the ones it recognizes, names the field by its label, says what to do next, and
 * keeps the original text for a "technical details" toggle. Internal errors show the short
 * reference the server logged the error under, never a pointer to logs the user cannot read.
 */
import { AgentError } from './client';
import { PlatformError } from './platform-client';
import { humanize } from './schema';

export interface ErrorText {
  /** What happened, in the user's words, with what to do next when there is something to do. */
  message: string;
  /** The field the error is about (its name in the schema), when the message names one. */
  field?: string;
  /** The protocol's own text, when the message says it differently. */
  technical?: string;
  /** An internal error's reference, to give an administrator. */
  reference?: string;
}

export interface ErrorTextContext {
  /** The collection the user works on (its name in the schema). */
  collection?: string;
  /** The label of a field, by its name; `humanize` by default. */
  label?(field: string): string;
}

/** `orders` → `Order`: the collection's name as a noun for one record. */
export function singularOf(collection: string): string {
  return humanize(collection).replace(/ies$/, 'y').replace(/s$/, '');
}

const quoted = (text: string) => `“${text}”`;

/** `orders.total`, `'total'` or `total` → the field's name (the last part of a path). */
function fieldName(path: string): string {
  const parts = path.split('.');
  return parts[parts.length - 1]!;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function unquote(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : value;
  } catch {
    return value;
  }
}

/** A validation rule of `addFieldValidation` (`Contains("@")`, `ShorterThan(51)`…) in words. */
function ruleText(label: string, operator: string, argument: string | undefined): string {
  const value = argument === undefined ? '' : unquote(argument);
  switch (operator) {
    case 'Present':
      return `${label} is required.`;
    case 'Contains':
      return `${label} must contain ${quoted(value)}.`;
    case 'GreaterThan':
      return `${label} must be greater than ${value}.`;
    case 'LessThan':
      return `${label} must be less than ${value}.`;
    case 'After':
      return `${label} must be after ${value}.`;
    case 'Before':
      return `${label} must be before ${value}.`;
    case 'LongerThan':
      return `${label} must be longer than ${value} characters.`;
    case 'ShorterThan':
      return `${label} must be shorter than ${value} characters (at most ${Number(value) - 1}).`;
    case 'Match':
    case 'Like':
      return `${label} is not in the expected format.`;
    default:
      return `${label} is not accepted (${operator}${argument === undefined ? '' : `(${argument})`}).`;
  }
}

type Rewrite = (
  match: RegExpMatchArray,
  context: Required<Pick<ErrorTextContext, 'label'>> & ErrorTextContext,
) => Omit<ErrorText, 'technical'>;

/** The protocol's messages this module recognizes, most specific first. */
const REWRITES: [RegExp, Rewrite][] = [
  [
    /^'([^']+)' failed validation rule: '(\w+)(?:\((.*)\))?'$/s,
    ([, name, operator, argument], { label }) => ({
      field: name,
      message: ruleText(label(name!), operator!, argument),
    }),
  ],
  [
    /^"([^"]+)" takes at most (\d+) characters?; the value given has (\d+)\.?$/,
    ([, path, max, given], { label }) => ({
      field: fieldName(path!),
      message: `${label(fieldName(path!))} takes at most ${max} characters; you entered ${given}. Shorten it and try again.`,
    }),
  ],
  [
    /^The given value is out of range for "([^"]+)": (\S+?)\.? Expects an integer from (-?\d+) to (-?\d+)/,
    ([, path, value, min, max], { label }) => {
      const name = fieldName(path!);
      const tooSmall = Number(value) < Number(min);
      return {
        field: name,
        message: `That ${label(name).toLowerCase()} is too ${tooSmall ? 'small' : 'large'}: it must be a whole number from ${min} to ${max}.`,
      };
    },
  ],
  [
    /The given enum value\(s\) (.+) is not listed in \[(.*)\] for "([^"]+)"/,
    ([, , listed, path], { label }) => ({
      field: fieldName(path!),
      message: `${label(fieldName(path!))} must be one of: ${listed}.`,
    }),
  ],
  [
    /The given value has a wrong type for "([^"]+)": .*\. Expects (\w+)/,
    ([, path, type], { label }) => ({
      field: fieldName(path!),
      message: `${label(fieldName(path!))} must be ${
        type === 'Number'
          ? 'a number'
          : type === 'Boolean'
            ? 'yes or no'
            : /^Date/.test(type!)
              ? 'a date'
              : `of type ${type}`
      }.`,
    }),
  ],
  [
    /^The '([^']+)' field is read-only and cannot be written\.?$/,
    ([, path], { label }) => ({
      field: fieldName(path!),
      message: `${label(fieldName(path!))} cannot be changed.`,
    }),
  ],
  [
    /^Record does not exists: '([^']+)' ids \(.*\) range from .* not (.+)$/,
    ([, collection, id]) => ({
      message: `${singularOf(collection!)} #${id} does not exist: no record can have that id. Check the address or the id you typed.`,
    }),
  ],
  [
    /^Record does not exists \('([^']+)' (.+)\)$/,
    ([, collection, id]) => ({
      message: `${singularOf(collection!)} #${id} no longer exists — it may have been deleted. Go back to the list to find it again.`,
    }),
  ],
  [
    /^Record does not exists\.?$/,
    (_match, { collection }) => ({
      message: `This ${collection ? singularOf(collection).toLowerCase() : 'record'} no longer exists — it may have been deleted. Go back to the list to find it again.`,
    }),
  ],
];

function rewrite(text: string, context: ErrorTextContext): Omit<ErrorText, 'technical'> | null {
  const filters = text.match(/^Invalid filters \((.*)\)$/s);
  if (filters) {
    const inner = rewrite(filters[1]!, context);
    return {
      message: inner
        ? `The filter could not be applied. ${inner.message}`
        : 'The filter could not be applied: one of its values does not fit its field. Change or remove the filter.',
    };
  }
  const full = { label: humanize, ...context };
  for (const [pattern, make] of REWRITES) {
    const match = text.match(pattern);
    if (match) return make(match, full);
  }
  return null;
}

const REFERENCE_IN_TEXT = /\(reference ([0-9a-f]{6,})\)/i;

function internal(reference: string | undefined, where: string): Omit<ErrorText, 'technical'> {
  return reference
    ? {
        reference,
        message: `Something went wrong on the ${where}. Try again; if it keeps happening, give an administrator this reference: ${reference}.`,
      }
    : {
        message: `Something went wrong on the ${where}. Try again; if it keeps happening, tell an administrator what you did and when.`,
      };
}

/**
 * The words for an error (an exception, or a message of the agent or the platform).
 *
 * @example
 * errorText(new AgentError(400, `'email' failed validation rule: 'Contains("@")'`))
 * // { field: 'email', message: 'Email must contain “@”.', technical: "'email' failed …" }
 */
export function errorText(error: unknown, context: ErrorTextContext = {}): ErrorText {
  const technical =
    typeof error === 'string'
      ? error
      : error instanceof Error
        ? error.message
        : String((error as { message?: unknown } | null)?.message ?? error);
  const answered =
    error instanceof AgentError || error instanceof PlatformError ? error : undefined;
  // A platform call that found no server (status 0) is a network failure, not a status.
  const status = answered?.status || undefined;
  const reference = answered?.reference ?? technical.match(REFERENCE_IN_TEXT)?.[1];
  let found = rewrite(technical, context);
  if (!found) {
    if (
      (status !== undefined && status >= 500 && status !== 503) ||
      reference ||
      /^(Unexpected error|Internal error; see the server logs\.?)$/.test(technical)
    ) {
      found = internal(reference, error instanceof AgentError ? 'agent' : 'server');
    } else if (
      (error instanceof TypeError && /fetch|network/i.test(technical)) ||
      (error instanceof PlatformError && error.code === 'network')
    ) {
      found = {
        message:
          'The server could not be reached. Check your connection, then try again in a moment.',
      };
    } else if (status === 429) {
      found = { message: 'Too many requests in a short time. Wait a moment, then try again.' };
    } else {
      found = { message: sentence(technical) };
    }
  }
  return found.message === technical ? found : { ...found, technical };
}
