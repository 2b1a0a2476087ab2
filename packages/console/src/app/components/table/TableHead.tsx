/**
 * The header row: the select-all box, a sort button per sortable column (its icon says the
 * order; without a sort in the view the agent lists by primary key, and that header shows it),
 * and for a column that cannot sort, a locked label that says why.
 */
import { Checkbox, Group, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconChevronDown, IconChevronUp, IconLock } from '@tabler/icons-react';
import { humanize, type SchemaCollection, type ViewState } from '../../../protocol';
import { headerKind, SELECT_COLUMN } from './column-model';
import type { PageSelection } from './selection';

const sortIcon = (sorted: 'ascending' | 'descending' | 'none') =>
  sorted === 'ascending' ? (
    <IconChevronUp size={14} />
  ) : sorted === 'descending' ? (
    <IconChevronDown size={14} />
  ) : (
    <IconArrowsSort size={14} opacity={0.35} />
  );

export function TableHead({
  collection,
  columns,
  sort,
  selection,
  onSelectAll,
  onSort,
  widths,
}: {
  collection: SchemaCollection;
  /** The ids of the columns after the selection column. */
  columns: readonly string[];
  sort: ViewState['sort'];
  selection: PageSelection;
  onSelectAll(checked: boolean): void;
  onSort(column: string): void;
  /** Column widths in pixels (the team's layout). */
  widths?: Readonly<Record<string, number>>;
}) {
  return (
    <Table.Thead>
      <Table.Tr aria-rowindex={1}>
        {[SELECT_COLUMN, ...columns].map((id) => {
          const header = headerKind(collection, sort, id);
          return (
            <Table.Th
              key={id}
              w={header.kind === 'select' ? 36 : widths?.[id]}
              miw={widths?.[id]}
              aria-sort={header.kind === 'sortable' ? header.sorted : undefined}
              style={{ whiteSpace: 'nowrap' }}
            >
              {header.kind === 'select' ? (
                <Checkbox
                  size="xs"
                  aria-label="Select every record of this page"
                  checked={selection === 'all'}
                  indeterminate={selection === 'some'}
                  onChange={(event) => onSelectAll(event.currentTarget.checked)}
                />
              ) : header.kind === 'sortable' ? (
                <UnstyledButton onClick={() => onSort(id)} aria-label={`Sort by ${humanize(id)}`}>
                  <Group gap={4} wrap="nowrap">
                    <Text size="sm" fw={600}>
                      {humanize(id)}
                    </Text>
                    {sortIcon(header.sorted)}
                  </Group>
                </UnstyledButton>
              ) : (
                // Not a button: the header says it does not sort, and why.
                <Tooltip
                  label={header.refusal}
                  multiline
                  w={260}
                  withArrow
                  events={{ hover: true, focus: true, touch: true }}
                >
                  <Group
                    gap={4}
                    wrap="nowrap"
                    tabIndex={0}
                    data-unsortable
                    aria-label={`${humanize(id)}: cannot be sorted. ${header.refusal}`}
                    style={{ cursor: 'help' }}
                  >
                    <Text size="sm" fw={600}>
                      {humanize(id)}
                    </Text>
                    <IconLock size={12} opacity={0.45} aria-hidden />
                  </Group>
                </Tooltip>
              )}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
}
