/**
 * Whether a table column can be sorted, and when it cannot, why (the header says so in a
 * tooltip rather than ignoring the click).
 */
import { isRelation, type SchemaField } from '../../protocol';

/** Why the list cannot be sorted by `field`, or `undefined` when it can. */
export function sortRefusal(field: SchemaField | undefined): string | undefined {
  if (!field) return 'Not a column of this collection.';
  if (isRelation(field))
    return 'A relation: sort by one of the related record’s fields from its own list.';
  if (field.isSortable !== false) return undefined;
  if (field.isVirtual)
    return 'A computed field: its value is worked out for each record shown, so the list cannot be ordered by it.';
  // Agents that do not flag computed fields (isVirtual) only say the field is not sortable.
  return 'Not sortable: a computed field, or one the data source cannot order by.';
}
