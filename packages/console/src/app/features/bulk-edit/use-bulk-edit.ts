/**
 * The bulk edit of the table's selection: the capability check, the dialog's state and its
 * progress. The requests (the preview count and the apply, bulk-edit-run.ts) load when the
 * dialog first opens, with it: the first screen carries only this state.
 */
import { useRef, useState } from 'react';
import { AgentError, type SchemaCollection, type Selection } from '../../../protocol';
import { rememberDenied } from '../../data';
import { useSession } from '../../session';
import { useAgentCapabilities } from '../../use-agent-capabilities';
import type { Snapshot } from './bulk-edit-run';

const loadRun = () => import('./bulk-edit-run');

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
  const snapshot = useRef<Snapshot>(null);
  const target = { client, collection, selection, bulkRoute };

  /** How many records the edit will change, counted as the agent will select them. */
  const preview = async (): Promise<number | null> => {
    const { previewEdit } = await loadRun();
    const previewed = await previewEdit(target);
    snapshot.current = previewed.snapshot;
    return previewed.count;
  };

  const apply = async (values: Record<string, unknown>): Promise<void> => {
    try {
      const { applyEdit } = await loadRun();
      await applyEdit(target, values, snapshot.current, setProgress);
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
    open: () => {
      // Fetched with the dialog; a failure shows at the preview.
      loadRun().catch(() => undefined);
      setOpened(true);
    },
    /** The props of BulkEditDialog.tsx. */
    dialog: { opened, onClose: () => setOpened(false), preview, apply, progress },
  };
}
