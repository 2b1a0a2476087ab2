/**
 * "N records changed — refresh" above a collection's list, when others write records of it
 * (live `record-changed` events; the user's own writes are not counted: the list already
 * refreshed for them). The list is not reloaded by itself: rows moving under the pointer while
 * someone reads or selects them would be worse than a notice.
 */
import type { RecordChangedEvent } from '@canopy/platform-protocol';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLive, useLiveEvents } from './LiveProvider';

export function LiveListNotice({ collection }: { collection: string }) {
  const { me } = useLive();
  const queryClient = useQueryClient();
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  useLiveEvents((event) => {
    if (event.type !== 'record-changed') return;
    const change = event.data as RecordChangedEvent;
    if (change.collection !== collection || change.userId === me) return;
    setChanged((current) =>
      current.has(change.recordId) ? current : new Set(current).add(change.recordId),
    );
  });
  if (changed.size === 0) return null;

  const refresh = () => {
    setChanged(new Set());
    void queryClient.invalidateQueries({
      predicate: ({ queryKey }) =>
        (queryKey[0] === 'list' || queryKey[0] === 'count') &&
        (queryKey[2] as { collection?: string } | undefined)?.collection === collection,
    });
  };
  const count = changed.size;
  return (
    <Alert color="blue" variant="light" mb="sm" p="xs" data-testid="live-list-notice">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" role="status">
          {count} record{count === 1 ? '' : 's'} changed
        </Text>
        <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={refresh}>
          Refresh
        </Button>
      </Group>
    </Alert>
  );
}
