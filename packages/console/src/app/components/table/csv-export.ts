/** What a table's CSV export holds: the visible columns that are values or to-one relations. */
import { isRelation, isToOne, type SchemaCollection } from '../../../protocol';

export function exportableColumns(collection: SchemaCollection, visible: readonly string[]) {
  return visible.filter((name) => {
    const field = collection.fields.find((f) => f.field === name);
    return field !== undefined && (!isRelation(field) || isToOne(field));
  });
}

/** `orders-2026-11-28.csv`: the collection and the day (UTC) of the export. */
export function csvFilename(collection: string, now: Date): string {
  return `${collection}-${now.toISOString().slice(0, 10)}.csv`;
}

/** The progress of a download, in words. */
export function exportProgress(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KB`;
}
