/**
 * The bulk edit of the table's selection: the capability check, the preview count, and the apply
 * — one request when the agent advertises `canUseBulkUpdate` (agent protocol §8.5.1), else one
 * `PUT` per record in parallel batches with progress and a summary of the failures.
 */
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import {
  AgentError,
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

  /** How many records the edit will change, counted as the agent will select them. */
  const preview = async (): Promise<number | null> => {
    const params = selectionCountParams(collection, selection);
    if (!params) return selection.count ?? null;
    return client.count(collection.name, params);
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
        const ids = await selectedIds(client, collection, selection);
        setProgress({ done: 0, total: ids.length });
        const outcome = await runPerRecord(
          ids,
          (id) => client.update(collection.name, id, values),
          { concurrency: 8, onProgress: (done, total) => setProgress({ done, total }) },
        );
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
