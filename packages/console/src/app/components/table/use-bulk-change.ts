/** The bulk change of the selection (bulk-change.ts): asked, confirmed, sent, reported. */
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { AgentError, type AgentClient } from '../../../protocol';
import { rememberDenied, type ListSource } from '../../data';
import { bulkDoneMessage, bulkRight, type BulkMode } from './bulk-change';

export function useBulkChange({
  client,
  collection,
  related,
  selected,
  onDone,
}: {
  client: AgentClient;
  collection: string;
  related: ListSource['related'];
  selected: ReadonlySet<string>;
  /** After a change: clear the selection, refetch. */
  onDone(): Promise<void>;
}) {
  const [confirm, setConfirm] = useState<BulkMode>();
  const run = async (mode: BulkMode) => {
    const ids = [...selected];
    try {
      if (mode === 'delete') await client.remove(collection, { ids });
      else
        await client.dissociate(
          related!.parent,
          related!.parentId,
          related!.relation,
          collection,
          { ids },
          { delete: mode === 'delete-related' },
        );
      notifications.show({ color: 'teal', message: bulkDoneMessage(mode, ids.length) });
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
