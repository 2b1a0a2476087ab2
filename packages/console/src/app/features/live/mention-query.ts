/**
 * `@` autocompletion in a message being typed: the mention being typed at the caret, and the
 * text once a member is chosen. The platform reads `@email` as a mention (docs/public-api.md §8)
 * when the `@` does not follow a letter, digit, `.` or `@`.
 */

export interface MentionQuery {
  /** Where the `@` is. */
  start: number;
  /** What follows it up to the caret. */
  prefix: string;
}

/** The mention being typed at `caret`, or `null` when the caret is not in one. */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}.@])@([^\s@]{0,60})$/u.exec(before);
  if (!match) return null;
  const start = before.length - match[2]!.length - 1;
  return { start, prefix: match[2]! };
}

/** `text` with the mention at `query` replaced by `@email ` ; the caret goes after it. */
export function insertMention(
  text: string,
  caret: number,
  query: MentionQuery,
  email: string,
): { text: string; caret: number } {
  const inserted = `@${email} `;
  const rest = text
    .slice(caret)
    .replace(/^[\p{L}\p{N}._+-]*/u, '')
    .replace(/^ /, '');
  return {
    text: `${text.slice(0, query.start)}${inserted}${rest}`,
    caret: query.start + inserted.length,
  };
}

/** The next highlighted option with a key: arrows wrap around; `-1` when there is none. */
export function moveHighlight(
  current: number,
  count: number,
  key: 'ArrowDown' | 'ArrowUp',
): number {
  if (count === 0) return -1;
  if (key === 'ArrowDown') return current < 0 ? 0 : (current + 1) % count;
  return current <= 0 ? count - 1 : current - 1;
}
