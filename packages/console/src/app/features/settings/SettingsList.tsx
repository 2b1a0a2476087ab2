import { Button, Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A settings tab that lists things: a line on what they are, the button that adds one, the list. */
export function SettingsList({
  intro,
  addLabel,
  addIcon,
  onAdd,
  children,
}: {
  intro: ReactNode;
  addLabel: string;
  addIcon: ReactNode;
  onAdd(): void;
  children: ReactNode;
}) {
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {intro}
        </Text>
        <Button leftSection={addIcon} onClick={onAdd}>
          {addLabel}
        </Button>
      </Group>
      {children}
    </Stack>
  );
}

/** The table of a {@link SettingsList}: its accessible name, its column heads, its rows. */
export function SettingsTable({
  label,
  minWidth,
  columns,
  highlightOnHover,
  children,
}: {
  label: string;
  minWidth: number;
  /** Column heads; a number is an empty head of that width (a column of buttons). */
  columns: readonly (string | { title: string; width: number } | number)[];
  highlightOnHover?: boolean;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table aria-label={label} verticalSpacing="xs" highlightOnHover={highlightOnHover}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) =>
              typeof column === 'number' ? (
                <Table.Th key={index} w={column} />
              ) : typeof column === 'string' ? (
                <Table.Th key={index}>{column}</Table.Th>
              ) : (
                <Table.Th key={index} w={column.width}>
                  {column.title}
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
