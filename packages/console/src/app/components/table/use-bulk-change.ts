/** The bulk change of the selection (bulk-change.ts): asked, confirmed, sent, reported. */
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { AgentError, type AgentClient, type Selection } from '../../../protocol';
import { rememberDenied, type ListSource } from '../../data';
import { bulkDoneMessage, bulkRight, type BulkMode } from './bulk-change';

export function useBulkChange({
  client,
  collection,
  related,
  selection,
  count,
  onDone,
}: {
  client: AgentClient;
  collection: string;
  related: ListSource['related'];
  /** The selected records: some ids, or all the view's records but some (§6.9). */
  selection: Selection;
  /** How many records that is (for the notice). */
  count: number;
  /** After a change: clear the selection, refetch. */
  onDone(): Promise<void>;
}) {
  const [confirm, setConfirm] = useState<BulkMode>();
  const run = async (mode: BulkMode) => {
    try {
      if (mode === 'delete') await client.remove(collection, selection);
      else
        await client.dissociate(
          related!.parent,
          related!.parentId,
          related!.relation,
          collection,
          selection,
          { delete: mode === 'delete-related' },
        );
      notifications.show({ color: 'teal', message: bulkDoneMessage(mode, count) });
      await onDone();
    } catch (error) {
      if (error instanceof AgentError && error.status === 403)
        rememberDenied(collection, bulkRight(mode));
      notifications.show({
        color: 'red',
        title: 'Nothing was changed',
        message: (error as Error).message,
      });
    } finally {
      setConfirm(undefined);
    }
  };
  return { confirm, ask: setConfirm, cancel: () => setConfirm(undefined), run };
}
