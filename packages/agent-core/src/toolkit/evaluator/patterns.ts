import { ValidationError } from '../errors/canopy-error';

const REGEX_META = /[.*+?^${}()|[\]\\/]/g;

/** Escapes a string so that it matches literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(REGEX_META, '\\$&');
}

/** Escapes `%`, `_` and `\` so that a string matches literally inside a LIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/**
 * Converts a SQL LIKE pattern (`%` any run, `_` one character, `\` escapes the next character)
 * into an anchored regular expression.
 */
export function likeToRegExp(pattern: string, caseInsensitive: boolean): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      source += escapeRegExp(pattern[index] as string);
    } else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`, caseInsensitive ? 'is' : 's');
}

/**
 * The regular expression of a `Match` value: a `RegExp`, a `/source/flags` string or a plain
 * pattern string.
 */
export function toRegExp(value: unknown): RegExp {
  if (value instanceof RegExp) return value;
  if (typeof value === 'string') {
    const literal = /^\/(.*)\/([a-z]*)$/s.exec(value);
    try {
      return literal ? new RegExp(literal[1] ?? '', literal[2]) : new RegExp(value);
    } catch (error) {
      throw new ValidationError(`Invalid regular expression for 'Match': ${value}.`, {
        cause: error,
      });
    }
  }
  throw new ValidationError(
    `'Match' expects a regular expression or a string pattern, got ${JSON.stringify(value)}.`,
  );
}
