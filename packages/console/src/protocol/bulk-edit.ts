/**
 * Bulk edit of a selection, as pure functions: which fields may be written on many records at
 * once, how the preview counts the selection, and the record-by-record fallback for an agent
 * without Canopy's bulk update (agent protocol §8.5.1).
 */
import { and, leaf, type ConditionTree } from './conditions';
import type { ListParams, Selection } from './query';
import { isRelation, primaryKeys, type SchemaCollection, type SchemaField } from './schema';

/**
 * The fields a bulk edit offers: writable columns. Not primary keys (every record would get the
 * same id), not relations (the bulk route writes attributes only), not files.
 */
export function bulkEditableFields(collection: SchemaCollection): SchemaField[] {
  return collection.fields.filter(
    (field) =>
      !field.isReadOnly &&
      !field.isPrimaryKey &&
      !isRelation(field) &&
      field.type !== 'Binary' &&
      !field.field.includes('@@@'),
  );
}

/**
 * The count query of a selection, for the preview: the view's filter, search and segment, with
 * the ids (or all but the excluded ones) as a condition on the primary key. `undefined` when the
 * ids cannot be a condition (a composite key): the preview then says the selection's own count.
 */
export function selectionCountParams(
  collection: SchemaCollection,
  selection: Selection,
): ListParams | undefined {
  const keys = primaryKeys(collection);
  if (keys.length !== 1) return undefined;
  const key = keys[0]!.field;
  // The agent intersects ids with the view too (§6.9): so does the count.
  const conditions: ConditionTree[] = selection.filters ? [selection.filters] : [];
  if (!selection.allRecords) conditions.push(leaf(key, 'in', selection.ids));
  else if (selection.ids.length) conditions.push(leaf(key, 'not_in', selection.ids));
  const filters = conditions.length <= 1 ? conditions[0] : and(...conditions);
  return { filters, search: selection.search, segment: selection.segment };
}

/** What a record-by-record bulk edit ended with. */
export interface PerRecordOutcome {
  updated: number;
  failed: { id: string; message: string }[];
}

/**
 * Runs `work` on each id, `concurrency` at a time (a batch of requests in parallel, the next once
 * one ends), reporting progress after each; failures are collected, never thrown.
 *
 * @example
 * await runPerRecord(ids, (id) => client.update('orders', id, values), { concurrency: 8 });
 */
export async function runPerRecord(
  ids: readonly string[],
  work: (id: string) => Promise<unknown>,
  options: { concurrency?: number; onProgress?(done: number, total: number): void } = {},
): Promise<PerRecordOutcome> {
  const outcome: PerRecordOutcome = { updated: 0, failed: [] };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        await work(id);
        outcome.updated += 1;
      } catch (error) {
        outcome.failed.push({ id, message: (error as Error).message });
      }
      done += 1;
      options.onProgress?.(done, ids.length);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? 8, ids.length));
  await Promise.all(Array.from({ length: width }, worker));
  return outcome;
}

/** "3 records were not changed: #4 (…), #9 (…)" — the first few failures, in words. */
export function failureSummary(failed: PerRecordOutcome['failed'], shown = 5): string {
  const listed = failed
    .slice(0, shown)
    .map((failure) => `#${failure.id} (${failure.message})`)
    .join(', ');
  const more = failed.length > shown ? ` and ${failed.length - shown} more` : '';
  return `${failed.length} ${failed.length === 1 ? 'record was' : 'records were'} not changed: ${listed}${more}.`;
}
