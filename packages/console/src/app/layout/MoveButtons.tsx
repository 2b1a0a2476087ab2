/**
 * Up and down buttons of layout mode (keyboard accessible, unlike dragging), named after what
 * they move: "Move Price up".
 */
import { ActionIcon, Group } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';

export function MoveButtons({
  name,
  first,
  last,
  onMove,
}: {
  name: string;
  first: boolean;
  last: boolean;
  onMove(by: number): void;
}) {
  return (
    <Group gap={2} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label={`Move ${name} up`}
        disabled={first}
        onClick={() => onMove(-1)}
      >
        <IconArrowUp size={14} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label={`Move ${name} down`}
        disabled={last}
        onClick={() => onMove(1)}
      >
        <IconArrowDown size={14} />
      </ActionIcon>
    </Group>
  );
}
