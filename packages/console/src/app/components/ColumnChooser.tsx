import { ActionIcon, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconColumns } from '@tabler/icons-react';
import { humanize } from '../../protocol';

/** Choose and reorder the table's columns. */
export function ColumnChooser({
  all,
  visible,
  onChange,
  onReset,
}: {
  all: string[];
  visible: string[];
  onChange(visible: string[]): void;
  onReset(): void;
}) {
  const ordered = [...visible, ...all.filter((name) => !visible.includes(name))];
  const move = (name: string, by: number) => {
    const next = [...visible];
    const at = next.indexOf(name);
    const to = at + by;
    if (at < 0 || to < 0 || to >= next.length) return;
    next.splice(at, 1);
    next.splice(to, 0, name);
    onChange(next);
  };
  return (
    <Popover width={280} position="bottom-end" shadow="md" withArrow trapFocus returnFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4} mah={360} style={{ overflow: 'auto' }}>
          <Text size="xs" c="dimmed">
            Shown columns, in order
          </Text>
          {ordered.map((name) => {
            const shown = visible.includes(name);
            return (
              <Group key={name} justify="space-between" wrap="nowrap" gap={4}>
                <Checkbox
                  size="xs"
                  label={humanize(name)}
                  checked={shown}
                  onChange={(event) =>
                    onChange(
                      event.currentTarget.checked
                        ? [...visible, name]
                        : visible.filter((v) => v !== name),
                    )
                  }
                />
                {shown && (
                  <Group gap={0} wrap="nowrap">
                    <ActionIcon
                      size="sm"
                      variant="subtle"
                      color="gray"
                      aria-label={`Move ${humanize(name)} up`}
                      onClick={() => move(name, -1)}
                    >
                      <IconArrowUp size={12} />
                    </ActionIcon>
                    <ActionIcon
                      size="sm"
                      variant="subtle"
                      color="gray"
                      aria-label={`Move ${humanize(name)} down`}
                      onClick={() => move(name, 1)}
                    >
                      <IconArrowDown size={12} />
                    </ActionIcon>
                  </Group>
                )}
              </Group>
            );
          })}
          <Button size="compact-xs" variant="subtle" onClick={onReset} mt={4}>
            Reset to default
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
