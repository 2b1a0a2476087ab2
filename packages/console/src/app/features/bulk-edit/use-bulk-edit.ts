/**
 * The bulk edit of the table's selection: the capability check, the preview count, and the apply
 * — one request when the agent advertises `canUseBulkUpdate` (agent protocol §8.5.1), else one
 * `PUT` per record in parallel batches with progress and a summary of the failures. The
 * fallback reads the selected records at the preview; before each write it reads the record
 * again (with its tag, §8.3): one changed since the preview is left as it is and counted as a
 * conflict, and the write carries `If-Match`, so that a change in between is refused (§8.5).
 */
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import {
  AgentError,
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
import { rememberDenied } from '../../data';
import { recordCount } from '../../components/table/selection';
import { useSession } from '../../session';
import { useAgentCapabilities } from '../../use-agent-capabilities';

/** Ids listed per request when the fallback reads an "all records but" selection. */
const ID_PAGE = 500;

/** The ids of the selection: its own, or every record of the view but the excluded ones. */
async function selectedIds(
  client: AgentClient,
  collection: SchemaCollection,
  selection: Selection,
): Promise<string[]> {
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

type Snapshot = Map<string, Record<string, unknown>>;

/** The selected records' values now (`null` when the ids cannot be a condition: composite key). */
async function selectedRecords(
  client: AgentClient,
  collection: SchemaCollection,
  selection: Selection,
): Promise<Snapshot | null> {
  const params = selectionCountParams(collection, selection);
  if (!params) return null;
  const key = primaryKeys(collection)[0]!.field;
  const records: Snapshot = new Map();
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

export function useBulkEdit({
  collection,
  selection,
  onDone,
}: {
  collection: SchemaCollection;
  selection: Selection;
  /** After a change: clear the selection, refetch. */
  onDone(): Promise<void>;
}) {
  const { client } = useSession();
  const bulkRoute = useAgentCapabilities().canUseBulkUpdate === true;
  const [opened, setOpened] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  /** The fallback's records as the preview read them. */
  const snapshot = useRef<Snapshot | null>(null);

  /** How many records the edit will change, counted as the agent will select them. */
  const preview = async (): Promise<number | null> => {
    if (!bulkRoute) {
      snapshot.current = await selectedRecords(client, collection, selection);
      if (snapshot.current) return snapshot.current.size;
    }
    const params = selectionCountParams(collection, selection);
    if (!params) return selection.count ?? null;
    return client.count(collection.name, params);
  };

  /** One record's write of the fallback, unless it changed since the preview. */
  const writeOne = async (id: string, values: Record<string, unknown>) => {
    const before = snapshot.current?.get(id);
    let ifMatch: string | undefined;
    if (before) {
      const { record, etag } = await client.getTagged(collection.name, id);
      if (!record || changedSince(before, record.values).length > 0) throw new ChangedSinceError();
      ifMatch = etag ?? undefined;
    }
    return client.update(collection.name, id, values, ifMatch);
  };

  const apply = async (values: Record<string, unknown>): Promise<void> => {
    try {
      if (bulkRoute) {
        const count = await client.bulkUpdate(collection.name, selection, values);
        notifications.show({
          color: 'teal',
          message: `${count === null ? 'The selected records' : recordCount(count)} updated.`,
        });
      } else {
        const ids = snapshot.current
          ? [...snapshot.current.keys()]
          : await selectedIds(client, collection, selection);
        setProgress({ done: 0, total: ids.length });
        const outcome = await runPerRecord(ids, (id) => writeOne(id, values), {
          concurrency: 8,
          onProgress: (done, total) => setProgress({ done, total }),
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
      setOpened(false);
      await onDone();
    } catch (error) {
      if (error instanceof AgentError && error.status === 403)
        rememberDenied(collection.name, 'editEnabled');
      // The dialog stays open and shows the error (a refused value: fix it and retry).
      throw error;
    } finally {
      setProgress(undefined);
    }
  };

  return {
    open: () => setOpened(true),
    /** The props of BulkEditDialog.tsx. */
    dialog: { opened, onClose: () => setOpened(false), preview, apply, progress },
  };
}
