/**
 * Bulk edit of a selection, as pure functions: which fields may be written on many records at
 * once, how the preview counts the selection, and the record-by-record fallback for an agent
 * without Canopy's bulk update (agent protocol §8.5.1).
 */
import { AgentError } from './client';
import { and, leaf, type ConditionTree } from './conditions';
import type { ListParams, Selection } from './query';
import { sameRevertValue } from './revert-plan';
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
  /** `conflict`: the record changed since the preview and was left as it is. */
  failed: { id: string; message: string; conflict?: true }[];
}

/** A record of the fallback changed since the preview: not written. */
export class ChangedSinceError extends Error {
  constructor() {
    super('changed since the preview');
  }
}

/** The fields of `before` (values read at the preview) that hold another value `now`. */
export function changedSince(
  before: Record<string, unknown>,
  now: Record<string, unknown>,
): string[] {
  return Object.keys(before).filter(
    (field) => field in now && !sameRevertValue(before[field], now[field]),
  );
}

/** Whether a failure of the fallback is a record changed since (ours, or the agent's `412`). */
function isConflict(error: unknown): boolean {
  return (
    error instanceof ChangedSinceError || (error instanceof AgentError && error.status === 412)
  );
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
        outcome.failed.push(
          isConflict(error)
            ? { id, message: new ChangedSinceError().message, conflict: true }
            : { id, message: (error as Error).message },
        );
      }
      done += 1;
      options.onProgress?.(done, ids.length);
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? 8, ids.length));
  await Promise.all(Array.from({ length: width }, worker));
  return outcome;
}

/**
 * "3 records were not changed: #4 (…), #9 (…)" — the first few failures, in words; the records
 * changed since the preview are counted apart ("2 records changed since the preview were left
 * as they are: #5, #8").
 */
export function failureSummary(failed: PerRecordOutcome['failed'], shown = 5): string {
  const refused = failed.filter((failure) => !failure.conflict);
  const conflicts = failed.filter((failure) => failure.conflict);
  const more = (count: number) => (count > shown ? ` and ${count - shown} more` : '');
  const parts: string[] = [];
  if (refused.length > 0) {
    const listed = refused
      .slice(0, shown)
      .map((failure) => `#${failure.id} (${failure.message})`)
      .join(', ');
    parts.push(
      `${refused.length} ${refused.length === 1 ? 'record was' : 'records were'} not changed: ${listed}${more(refused.length)}.`,
    );
  }
  if (conflicts.length > 0) {
    const listed = conflicts
      .slice(0, shown)
      .map((failure) => `#${failure.id}`)
      .join(', ');
    parts.push(
      `${conflicts.length} ${conflicts.length === 1 ? 'record' : 'records'} changed since the preview ${conflicts.length === 1 ? 'was' : 'were'} left as ${conflicts.length === 1 ? 'it is' : 'they are'}: ${listed}${more(conflicts.length)}.`,
    );
  }
  return parts.join(' ');
}
