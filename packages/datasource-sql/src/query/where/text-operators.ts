import type { Operator } from '@canopy/agent-core/toolkit';
import {
  caseInsensitiveMatch,
  caseSensitiveMatch,
  likeToGlob,
  literalPattern,
  type Anchor,
} from '../like-patterns';
import { bindings, type Leaf, type OperatorTranslator } from './leaf';

function substring(anchor: Anchor, insensitive: boolean, negate: boolean): OperatorTranslator {
  return (leaf) => {
    const glob = leaf.dialect === 'sqlite' && !insensitive;
    const pattern = literalPattern(String(leaf.value), anchor, glob);
    const sql = insensitive
      ? caseInsensitiveMatch(leaf.dialect, true)
      : caseSensitiveMatch(leaf.dialect, true);
    if (!negate) return leaf.query.whereRaw(sql, bindings([leaf.ref, pattern]));
    return leaf.query.where((inner) =>
      inner.whereRaw(`NOT (${sql})`, bindings([leaf.ref, pattern])).orWhereNull(leaf.ref),
    );
  };
}

/** A `Match` value: a RegExp, `/source/flags` text, or a bare pattern. */
function regexFrom(value: unknown): { source: string; insensitive: boolean } {
  if (value instanceof RegExp) {
    return { source: value.source, insensitive: value.flags.includes('i') };
  }
  const text = String(value);
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (literal) return { source: literal[1] ?? '', insensitive: (literal[2] ?? '').includes('i') };
  return { source: text, insensitive: false };
}

function match(leaf: Leaf) {
  const { source, insensitive } = regexFrom(leaf.value);
  switch (leaf.dialect) {
    case 'postgres':
      return leaf.query.whereRaw(insensitive ? '?? ~* ?' : '?? ~ ?', bindings([leaf.ref, source]));
    case 'sqlite':
      return leaf.query.whereRaw(
        'canopy_regexp(??, ?, ?) = 1',
        bindings([leaf.ref, source, insensitive ? 'i' : '']),
      );
    default:
      return leaf.query.whereRaw(
        '?? REGEXP ?',
        bindings([leaf.ref, `${insensitive ? '(?i)' : '(?-i)'}${source}`]),
      );
  }
}

function length(sign: '<' | '>'): OperatorTranslator {
  return (leaf) => {
    const fn = leaf.dialect === 'sqlite' ? 'LENGTH' : 'CHAR_LENGTH';
    return leaf.query.whereRaw(`${fn}(??) ${sign} ?`, bindings([leaf.ref, leaf.value]));
  };
}

/**
 * Text operators, portable across dialects: substring operators match their value literally
 * (`%` and `_` escaped); the case-sensitive ones stay case-sensitive on MySQL (binary LIKE) and
 * SQLite (GLOB), the case-insensitive ones use ILIKE or LOWER() LIKE LOWER().
 */
export const TEXT_OPERATORS: Partial<Record<Operator, OperatorTranslator>> = {
  Contains: substring('contains', false, false),
  StartsWith: substring('starts', false, false),
  EndsWith: substring('ends', false, false),
  IContains: substring('contains', true, false),
  IStartsWith: substring('starts', true, false),
  IEndsWith: substring('ends', true, false),
  NotContains: substring('contains', false, true),
  NotIContains: substring('contains', true, true),
  Like: (leaf) => {
    const pattern = leaf.dialect === 'sqlite' ? likeToGlob(String(leaf.value)) : String(leaf.value);
    return leaf.query.whereRaw(
      caseSensitiveMatch(leaf.dialect, false),
      bindings([leaf.ref, pattern]),
    );
  },
  ILike: (leaf) =>
    leaf.query.whereRaw(
      caseInsensitiveMatch(leaf.dialect, false),
      bindings([leaf.ref, String(leaf.value)]),
    ),
  Match: match,
  LongerThan: length('>'),
  ShorterThan: length('<'),
};
