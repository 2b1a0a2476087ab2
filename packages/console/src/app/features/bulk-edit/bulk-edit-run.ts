/**
 * The requests of a bulk edit (use-bulk-edit.ts keeps its state): the preview count, and the
 * apply — one request when the agent advertises `canUseBulkUpdate` (agent protocol §8.5.1), else
 * one `PUT` per record in parallel batches with progress and a summary of the failures. The
 * fallback reads the selected records at the preview; before each write it reads the record
 * again (with its tag, §8.3): one changed since the preview is left as it is and counted as a
 * conflict, and the write carries `If-Match`, so that a change in between is refused (§8.5).
 * Loaded when the edit is first asked for, with its dialog: off the first screen.
 */
import { notifications } from '@mantine/notifications';
import {
  changedSince,
  ChangedSinceError,
  failureSummary,
  primaryKeys,
  runPerRecord,
  selectionCountParams,
  type AgentClient,
  type SchemaCollection,
  type Selection,
} from '../../../protocol';
import { recordCount } from '../../components/table/selection';

/** Ids listed per request when the fallback reads an "all records but" selection. */
const ID_PAGE = 500;

/** The fallback's records as the preview read them (`null`: the ids cannot be a condition). */
export type Snapshot = Map<string, Record<string, unknown>> | null;

export interface BulkEditTarget {
  client: AgentClient;
  collection: SchemaCollection;
  selection: Selection;
  /** The agent has Canopy's bulk update route. */
  bulkRoute: boolean;
}

/** The ids of the selection: its own, or every record of the view but the excluded ones. */
async function selectedIds({ client, collection, selection }: BulkEditTarget): Promise<string[]> {
  if (!selection.allRecords) return selection.ids;
  const excluded = new Set(selection.ids);
  const key = primaryKeys(collection).map((field) => field.field);
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const rows = await client.list(collection.name, {
      fields: key,
      filters: selection.filters,
      search: selection.search,
      segment: selection.segment,
      sort: key[0],
      page: { number: page, size: ID_PAGE },
    });
    for (const row of rows) if (!excluded.has(row.id)) ids.push(row.id);
    if (rows.length < ID_PAGE) return ids;
  }
}

/** The selected records' values now (`null` when the ids cannot be a condition: composite key). */
async function selectedRecords({
  client,
  collection,
  selection,
}: BulkEditTarget): Promise<Snapshot> {
  const params = selectionCountParams(collection, selection);
  if (!params) return null;
  const key = primaryKeys(collection)[0]!.field;
  const records = new Map<string, Record<string, unknown>>();
  for (let page = 1; ; page += 1) {
    const rows = await client.list(collection.name, {
      ...params,
      sort: key,
      page: { number: page, size: ID_PAGE },
    });
    for (const row of rows) records.set(row.id, row.values);
    if (rows.length < ID_PAGE) return records;
  }
}

/**
 * How many records the edit will change, counted as the agent will select them; and, for the
 * fallback, the records as they are now.
 */
export async function previewEdit(
  target: BulkEditTarget,
): Promise<{ count: number | null; snapshot: Snapshot }> {
  const { client, collection, selection } = target;
  if (!target.bulkRoute) {
    const snapshot = await selectedRecords(target);
    if (snapshot) return { count: snapshot.size, snapshot };
  }
  const params = selectionCountParams(collection, selection);
  const count = params ? await client.count(collection.name, params) : (selection.count ?? null);
  return { count, snapshot: null };
}

/** Writes the values, then says how it went (a notification). */
export async function applyEdit(
  target: BulkEditTarget,
  values: Record<string, unknown>,
  snapshot: Snapshot,
  onProgress: (progress: { done: number; total: number }) => void,
): Promise<void> {
  const { client, collection, selection } = target;
  if (target.bulkRoute) {
    const count = await client.bulkUpdate(collection.name, selection, values);
    notifications.show({
      color: 'teal',
      message: `${count === null ? 'The selected records' : recordCount(count)} updated.`,
    });
    return;
  }
  /** One record's write, unless it changed since the preview. */
  const writeOne = async (id: string) => {
    const before = snapshot?.get(id);
    let ifMatch: string | undefined;
    if (before) {
      const { record, etag } = await client.getTagged(collection.name, id);
      if (!record || changedSince(before, record.values).length > 0) throw new ChangedSinceError();
      ifMatch = etag ?? undefined;
    }
    return client.update(collection.name, id, values, ifMatch);
  };
  const ids = snapshot ? [...snapshot.keys()] : await selectedIds(target);
  onProgress({ done: 0, total: ids.length });
  const outcome = await runPerRecord(ids, writeOne, {
    concurrency: 8,
    onProgress: (done, total) => onProgress({ done, total }),
  });
  notifications.show(
    outcome.failed.length === 0
      ? { color: 'teal', message: `${recordCount(outcome.updated)} updated.` }
      : {
          color: 'orange',
          title: `${recordCount(outcome.updated)} updated`,
          message: failureSummary(outcome.failed),
          autoClose: false,
        },
  );
}
