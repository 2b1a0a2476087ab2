import pluralize from 'pluralize';

/** `author_id` → `author`, `authorId` → `author`; other names unchanged. */
export function stripKeySuffix(column: string): string | undefined {
  if (column.length > 3 && column.endsWith('_id')) return column.slice(0, -3);
  if (column.length > 2 && column.endsWith('Id')) return column.slice(0, -2);
  return undefined;
}

/** English singular of a table or column name (`orders` → `order`). */
export function singular(name: string): string {
  return pluralize.singular(name);
}

/** English plural of a table or column name (`order_line` → `order_lines`). */
export function plural(name: string): string {
  return pluralize.plural(name);
}
