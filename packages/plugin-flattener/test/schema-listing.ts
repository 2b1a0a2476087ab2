import type { CollectionSchema } from '@canopy/agent-core';
import { describeColumnType } from '@canopy/agent-core/toolkit';

/**
 * A collection's exposed fields as the README shows them: one line per field with its type and
 * what the admin UI may do with it (filter, sort, write).
 */
export function schemaListing(schema: CollectionSchema): string {
  const rows = Object.entries(schema.fields).map(([name, field]) => {
    if (field.type !== 'Column') return [name, `${field.type} → ${field.foreignCollection}`, ''];
    const type =
      field.columnType === 'Enum'
        ? `Enum (${(field.enumValues ?? []).join(', ')})`
        : describeColumnType(field.columnType);
    const can = [
      field.filterOperators.size > 0 ? 'filter' : '',
      field.isSortable ? 'sort' : '',
      field.isReadOnly ? '' : 'write',
    ].filter(Boolean);
    return [name, type, can.join(' ')];
  });
  const width = (index: number) => Math.max(...rows.map((row) => row[index]?.length ?? 0));
  return rows
    .map(([name, type, can]) =>
      `${name?.padEnd(width(0))}  ${type?.padEnd(width(1))}  ${can}`.trimEnd(),
    )
    .join('\n');
}
