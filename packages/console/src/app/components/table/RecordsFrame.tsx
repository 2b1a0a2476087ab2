/**
 * The table itself in its scrolling frame, under its sticky header row: the loading skeleton,
 * the rows mounted so far (use-progressive-rows.ts) with the row keyboard (use-row-keys.ts), and
 * what an empty view says.
 */
import { Button, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';
import type { AgentRecord } from '../../../protocol';
import type { useRowKeys } from '../use-row-keys';
import type { CellColumn } from './cell-columns';
import { RecordRow } from './RecordRow';

export function RecordsFrame({
  frameRef,
  tableRef,
  label,
  tableProps,
  head,
  pending,
  rows,
  firstIndex,
  columns,
  selected,
  rowKeys,
  onToggle,
  onOpen,
  empty,
  spacing = 6,
  rowColour,
}: {
  frameRef: RefObject<HTMLDivElement | null>;
  tableRef: RefObject<HTMLTableElement | null>;
  label: string;
  /** The table's state attributes (aria-busy, row count, test attributes, style). */
  tableProps: Record<string, unknown>;
  head: ReactNode;
  /** The first page is loading: skeleton rows. */
  pending: boolean;
  /** The rows to mount now. */
  rows: AgentRecord[];
  /** The view's index of the first row (from 1). */
  firstIndex: number;
  columns: CellColumn[];
  selected: ReadonlySet<string>;
  rowKeys: ReturnType<typeof useRowKeys>;
  onToggle(id: string, checked: boolean): void;
  onOpen(record: AgentRecord): void;
  /** What an empty view says (with how to clear it), or nothing. */
  empty: { text: string; onClear?(): void } | undefined;
  /** The rows' vertical padding (the layout's density). */
  spacing?: number;
  /** The colour of a row under the team's layout (use-row-colours.ts). */
  rowColour?: (record: AgentRecord) => { colour: string; label: string } | undefined;
}) {
  return (
    <Paper withBorder radius="md" className="rt-frame" ref={frameRef}>
      <Table
        ref={tableRef}
        highlightOnHover
        stickyHeader
        verticalSpacing={spacing}
        aria-label={label}
        {...tableProps}
      >
        {head}
        <Table.Tbody ref={rowKeys.bodyRef} onKeyDown={rowKeys.onKeyDown} onFocus={rowKeys.onFocus}>
          {pending &&
            Array.from({ length: 8 }, (_, i) => (
              <tr key={i} className="rt-row rt-loading" aria-hidden>
                {[undefined, ...columns].map((_c, j) => (
                  <td key={j}>
                    <div className="rt-skeleton" />
                  </td>
                ))}
              </tr>
            ))}
          {rows.map((record, index) => (
            <RecordRow
              key={record.id}
              rowIndex={firstIndex + index + 1}
              record={record}
              columns={columns}
              selected={selected.has(record.id)}
              active={index === rowKeys.active}
              onToggle={onToggle}
              onOpen={onOpen}
              colour={rowColour?.(record)}
            />
          ))}
        </Table.Tbody>
      </Table>
      {empty && (
        <Stack align="center" gap={6} py="xl">
          <Text fw={500}>{empty.text}</Text>
          {empty.onClear && (
            <Button variant="subtle" size="xs" onClick={empty.onClear}>
              Clear search and filters
            </Button>
          )}
        </Stack>
      )}
    </Paper>
  );
}
