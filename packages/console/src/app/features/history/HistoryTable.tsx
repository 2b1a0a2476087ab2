/**
 * The entries of a record's history as a table, in runs of one correlation (what one request,
 * action or bulk edit wrote): a group shows its size across records, can list the other
 * records' entries, and can be reverted as a whole; an update, a creation or a deletion can be
 * reverted on its own.
 */
import { Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useState } from 'react';
import {
  groupByCorrelation,
  historyChanges,
  historyWhat,
  historyWho,
  type HistoryEntry,
} from '../../../protocol';
import { useSchema } from '../../data';
import { formatNumber, personName } from '../../components/format';
import { formatWhen } from '../../components/when';
import { fieldLabel, recordLabel, valueText } from './history-text';

/** The most entries of one correlation the agent answers (agent-core's audit store). */
const CORRELATION_CAP = 10_000;

/** Other records' entries listed under a group (a bulk edit may have written thousands). */
const OTHERS_SHOWN = 50;

const COLORS: Record<HistoryEntry['operation'], string> = {
  create: 'teal',
  update: 'blue',
  delete: 'red',
  action: 'grape',
  action_failed: 'red',
};

/** What a revert undoes: an update (values back), a creation (delete), a deletion (create). */
const REVERTIBLE = new Set<HistoryEntry['operation']>(['create', 'update', 'delete']);

function Changes({ entry }: { entry: HistoryEntry }) {
  const schema = useSchema();
  const changes = historyChanges(entry);
  if (changes.length === 0) return null;
  const text = (field: string, value: unknown) =>
    valueText(schema.data, entry.collection, field, value);
  return (
    <Stack gap={2}>
      {changes.map(({ field, before, after }) => (
        <Text key={field} size="sm" data-testid="history-change" data-field={field}>
          <Text span fw={600} title={field}>
            {fieldLabel(field)}
          </Text>
          {': '}
          {entry.operation !== 'create' && (
            <Text span c="dimmed" td={entry.operation === 'update' ? 'line-through' : undefined}>
              {text(field, before)}
            </Text>
          )}
          {entry.operation === 'update' && ' → '}
          {entry.operation !== 'delete' && <Text span>{text(field, after)}</Text>}
        </Text>
      ))}
    </Stack>
  );
}

function EntryRow({
  entry,
  showRecord,
  onRevert,
  onTravel,
}: {
  entry: HistoryEntry;
  showRecord?: boolean;
  onRevert?: (entry: HistoryEntry) => void;
  onTravel?: (entry: HistoryEntry) => void;
}) {
  const failed = entry.operation === 'action_failed';
  return (
    <Table.Tr data-testid="history-row" data-operation={entry.operation}>
      <Table.Td>{formatWhen(entry.timestamp)}</Table.Td>
      <Table.Td title={entry.userEmail ?? undefined}>
        {personName({
          firstName: entry.userFirstName,
          lastName: entry.userLastName,
          email: entry.userEmail,
        }) || historyWho(entry)}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <Badge variant={failed ? 'filled' : 'light'} color={COLORS[entry.operation] ?? 'gray'}>
            {historyWhat(entry)}
          </Badge>
          {failed && (
            <Text size="xs" c="red" data-testid="history-failed">
              Rolled back: nothing it wrote was kept.
            </Text>
          )}
          {entry.correlationKind === 'revert' && (
            <Badge variant="outline" color="gray">
              Revert
            </Badge>
          )}
        </Group>
        {showRecord && (
          <Text size="xs" c="dimmed">
            {recordLabel(entry.collection, entry.recordId)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Changes entry={entry} />
      </Table.Td>
      <Table.Td>
        <Group gap={2} wrap="nowrap">
          {onTravel && entry.operation === 'update' && (
            <Button size="compact-xs" variant="subtle" onClick={() => onTravel(entry)}>
              See before
            </Button>
          )}
          {onRevert && REVERTIBLE.has(entry.operation) && (
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => onRevert(entry)}>
              Revert…
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** What the table knows of each correlation across records (from the correlations route). */
export type CorrelationEntries = ReadonlyMap<string, HistoryEntry[]>;

export function HistoryTable({
  entries,
  collection,
  recordId,
  correlations,
  onRevertEntry,
  onRevertGroup,
  onTravel,
}: {
  entries: HistoryEntry[];
  collection: string;
  recordId: string;
  correlations?: CorrelationEntries;
  onRevertEntry?: (entry: HistoryEntry) => void;
  onRevertGroup?: (correlationKey: string) => void;
  /** Shows the record as it was just before an entry (time travel). */
  onTravel?: (entry: HistoryEntry) => void;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const isHere = (entry: HistoryEntry) =>
    entry.collection === collection && entry.recordId === recordId;
  return (
    <Table striped highlightOnHover aria-label="History">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>What</Table.Th>
          <Table.Th>Changes</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groupByCorrelation(entries).map((group, index) => {
          const all = correlations?.get(group.correlationKey) ?? group.entries;
          const others = all.filter((entry) => !isHere(entry) && entry.recordId !== null);
          const records = new Set(others.map((entry) => `${entry.collection}/${entry.recordId}`));
          // The agent answers at most CORRELATION_CAP entries of a correlation: a group that
          // reaches it is only partly known, and is not offered for a whole revert.
          // (it reads that many rows, then leaves out those the caller may not read: a group near
          // the cap may be cut too).
          const partial = all.length >= CORRELATION_CAP * 0.9;
          const revertible = !partial && all.some((entry) => REVERTIBLE.has(entry.operation));
          const grouped = others.length > 0 || group.entries.length > 1;
          return (
            <Fragment key={`${group.correlationKey}-${index}`}>
              {grouped && (
                <Table.Tr data-testid="history-group" data-size={all.length}>
                  <Table.Td colSpan={5} bg="var(--mantine-color-gray-light)">
                    <Group justify="space-between" gap="xs">
                      <Text size="xs" c="dimmed">
                        {all.every((entry) => entry.correlationKind === 'revert')
                          ? 'A revert'
                          : all.every((entry) => entry.correlationKind === 'import')
                            ? 'One import'
                            : 'One request'}
                        : {partial ? `${formatNumber(all.length)}+ entries` : all.length}
                        {!partial && ` entr${all.length === 1 ? 'y' : 'ies'}`}
                        {records.size > 0 &&
                          `, ${partial ? 'more than ' : ''}${formatNumber(records.size)} other record${records.size === 1 ? '' : 's'}`}
                        {partial && ' — too large to revert in one step from here'}
                      </Text>
                      <Group gap={4}>
                        {others.length > 0 && (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            onClick={() =>
                              setOpen(open === group.correlationKey ? null : group.correlationKey)
                            }
                          >
                            {open === group.correlationKey ? 'Hide' : 'Show'} other records
                          </Button>
                        )}
                        {onRevertGroup && revertible && (
                          <Button
                            size="compact-xs"
                            variant="light"
                            color="red"
                            onClick={() => onRevertGroup(group.correlationKey)}
                          >
                            Revert the whole request…
                          </Button>
                        )}
                      </Group>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              )}
              {group.entries.map((entry) => (
                <EntryRow
                  key={`${entry.id}-${entry.correlationKey}`}
                  entry={entry}
                  onRevert={onRevertEntry}
                  onTravel={onTravel}
                />
              ))}
              {open === group.correlationKey &&
                others
                  .slice(0, OTHERS_SHOWN)
                  .map((entry) => (
                    <EntryRow
                      key={`other-${entry.id}-${entry.collection}`}
                      entry={entry}
                      showRecord
                    />
                  ))}
              {open === group.correlationKey && others.length > OTHERS_SHOWN && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text size="xs" c="dimmed">
                      And {others.length - OTHERS_SHOWN} more entries of other records.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
