/**
 * Record → History: the record's history as the agent recorded it (agent protocol §13.1), newest
 * first, page by page — who, when, what, and each changed field's value before and after. The
 * tab is shown only when the agent advertises `canUseAuditTrail`.
 */
import { Badge, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  findField,
  formatHistoryValue,
  humanize,
  historyChanges,
  historyWhat,
  historyWho,
  nextHistoryPage,
  type HistoryEntry,
  type SchemaCollection,
} from '../../../protocol';
import { collectionOf, useSchema } from '../../data';
import { formatFieldValue, personName } from '../../components/format';
import { useSession } from '../../session';
import { PagedLogs } from '../activity/PagedLogs';
import { formatWhen } from '../../components/when';
import { useAgentCapabilities } from '../../use-agent-capabilities';

const COLORS: Record<HistoryEntry['operation'], string> = {
  create: 'teal',
  update: 'blue',
  delete: 'red',
  action: 'grape',
  action_failed: 'orange',
};

/** Whether the workspace's agent records history (`canUseAuditTrail` in its capabilities). */
export function useHasRecordHistory(): boolean {
  return useAgentCapabilities().canUseAuditTrail === true;
}

function Changes({
  entry,
  collection,
}: {
  entry: HistoryEntry;
  collection: SchemaCollection | undefined;
}) {
  const changes = historyChanges(entry);
  if (changes.length === 0) return null;
  // A value as the record page shows it: the field's formatting, its display name.
  const text = (name: string, value: unknown) => {
    const field = collection && findField(collection, name);
    return field && value !== undefined
      ? formatFieldValue(field, value)
      : formatHistoryValue(value);
  };
  return (
    <Stack gap={2}>
      {changes.map(({ field, before, after }) => (
        <Text key={field} size="sm" data-testid="history-change" data-field={field}>
          <Text span fw={600} title={field}>
            {humanize(field)}
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

export function HistoryTable({
  entries,
  collection,
}: {
  entries: HistoryEntry[];
  collection?: SchemaCollection;
}) {
  return (
    <Table striped highlightOnHover aria-label="History">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>What</Table.Th>
          <Table.Th>Changes</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry) => (
          <Table.Tr key={`${entry.id}-${entry.correlationKey}`} data-testid="history-row">
            <Table.Td>{formatWhen(entry.timestamp)}</Table.Td>
            <Table.Td title={entry.userEmail ?? undefined}>
              {personName({
                firstName: entry.userFirstName,
                lastName: entry.userLastName,
                email: entry.userEmail,
              }) || historyWho(entry)}
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color={COLORS[entry.operation] ?? 'gray'}>
                {historyWhat(entry)}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Changes entry={entry} collection={collection} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The history of one record, newest first, 20 entries a page. */
export function RecordHistory({ collection, recordId }: { collection: string; recordId: string }) {
  const { client, workspace } = useSession();
  const schema = useSchema();
  const history = useInfiniteQuery({
    queryKey: ['history', workspace.id, collection, recordId],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => client.recordHistory(collection, recordId, pageParam),
    getNextPageParam: (_last, pages) => nextHistoryPage(pages),
  });
  return (
    <PagedLogs
      query={history}
      empty="No change recorded on this record yet."
      older="Older changes"
      placeholderHeight={120}
    >
      {(entries) => (
        <HistoryTable entries={entries} collection={collectionOf(schema.data, collection)} />
      )}
    </PagedLogs>
  );
}
