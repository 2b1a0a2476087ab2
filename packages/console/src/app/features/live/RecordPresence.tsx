/**
 * Who else has a record open — on its page or in its edit form — as initials with their names,
 * from the platform's presence (`usePresence`, which also announces this tab's own). Nothing is
 * drawn while nobody else has it open.
 */
import { Avatar, Group, Text, Tooltip } from '@mantine/core';
import { initialsOf, useMembers } from './use-members';
import { usePresence } from './use-presence';

export function RecordPresence({
  collection,
  recordId,
  label = 'Also viewing:',
}: {
  collection: string;
  recordId: string;
  label?: string;
}) {
  const members = useMembers();
  const others = usePresence(collection, recordId);
  if (!others.length) return null;
  const name = (id: number) => members.get(id)?.name || members.get(id)?.email || 'Another member';
  return (
    <Group gap="xs" data-testid="record-presence">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Avatar.Group spacing="xs">
        {others.map((id) => (
          <Tooltip key={id} label={name(id)} withArrow>
            <Avatar size="sm" radius="xl" color="grape" role="img" aria-label={name(id)}>
              {initialsOf(members.get(id))}
            </Avatar>
          </Tooltip>
        ))}
      </Avatar.Group>
    </Group>
  );
}
