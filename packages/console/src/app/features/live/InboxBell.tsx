/**
 * The header's bell: the user's inbox in this environment (docs/public-api.md §8), mentions in
 * notes and approval requests to decide, with the unread count. Opening an item marks it read
 * and goes to it (the record's notes, or the approvals page). The live stream's `mention` and
 * approval events make the count stale; it is polled only while the stream is down.
 */
import type { InboxItem, InboxPage } from '@canopy/platform-protocol';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatWhen } from '../../components/when';
import { useDataBase, useWorkspaceBase } from '../../data';
import { platformFetch, platformJson, usePlatformPaths } from '../../platform-calls';
import { inboxText } from './inbox-text';
import { useLivePoll } from './use-live-poll';
import { recordPath } from '../../data-paths';

export function InboxBell() {
  const paths = usePlatformPaths();
  const base = useDataBase();
  const pages = useWorkspaceBase();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const unread = useQuery({
    queryKey: ['inbox', paths.environment, 'count'],
    queryFn: () => platformJson<{ unreadCount: number }>(`${paths.environment}/inbox/unread-count`),
    refetchInterval: useLivePoll(30_000),
    retry: false,
  });
  const items = useQuery({
    queryKey: ['inbox', paths.environment, 'list'],
    queryFn: () => platformJson<InboxPage>(`${paths.environment}/inbox?limit=20`),
    enabled: opened,
  });
  const count = unread.data?.unreadCount ?? 0;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['inbox'] });

  const openItem = async (item: InboxItem) => {
    setOpened(false);
    if (!item.readAt) {
      await platformFetch(`${paths.environment}/inbox/${item.id}/read`, { method: 'POST' }).catch(
        () => undefined,
      );
      void refresh();
    }
    if (item.kind === 'mention' && item.note.collectionName) {
      const { collectionName, recordId } = item.note;
      navigate(recordPath(base, collectionName, recordId, 'notes'));
    } else if (item.kind === 'approval') {
      navigate(`${pages}/approvals`);
    } else {
      navigate(`${pages}/notes`);
    }
  };
  const readAll = async () => {
    await platformFetch(`${paths.environment}/inbox/read-all`, { method: 'POST' });
    void refresh();
  };

  return (
    <Indicator
      label={count > 99 ? '99+' : count}
      size={16}
      color="red"
      disabled={count === 0}
      offset={4}
      ml="auto"
      mr="xs"
    >
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md">
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={count ? `Inbox, ${count} unread` : 'Inbox'}
            data-testid="inbox-bell"
            onClick={() => setOpened((current) => !current)}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs">
          <Group justify="space-between" mb="xs">
            <Text fw={600} size="sm">
              Inbox
            </Text>
            <Button size="compact-xs" variant="subtle" disabled={count === 0} onClick={readAll}>
              Mark all read
            </Button>
          </Group>
          <ScrollArea.Autosize mah={420}>
            <Stack gap={2} role="list" aria-label="Inbox">
              {items.isPending && (
                <Text size="sm" c="dimmed">
                  Loading…
                </Text>
              )}
              {items.data?.data.length === 0 && (
                <Text size="sm" c="dimmed">
                  Nothing here yet: mentions and approval requests for you land here.
                </Text>
              )}
              {items.data?.data.map((item) => (
                <div role="listitem" key={item.id}>
                  <UnstyledButton
                    w="100%"
                    data-testid="inbox-item"
                    data-unread={item.readAt ? undefined : 'true'}
                    onClick={() => void openItem(item)}
                    p="xs"
                    style={{
                      borderRadius: 6,
                      background: item.readAt ? undefined : 'var(--mantine-color-teal-light)',
                    }}
                  >
                    <Text size="sm" fw={item.readAt ? 400 : 600}>
                      {inboxText(item)}
                    </Text>
                    <Group gap={6}>
                      <Text size="xs" c="dimmed">
                        {formatWhen(item.createdAt)}
                      </Text>
                      {item.kind === 'approval' && item.approval.status !== 'pending' && (
                        <Badge size="xs" variant="light">
                          {item.approval.status}
                        </Badge>
                      )}
                    </Group>
                  </UnstyledButton>
                </div>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
