import { Badge, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { platformJson, usePlatformPaths } from '../../platform-calls';
import type { Page } from '../notes/notes-api';
import { activityQuery, outcomeOf, type ActivityLog } from './activity-api';
import { PagedLogs } from './PagedLogs';
import { formatWhen } from '../../components/when';
import { personName } from '../../components/format';
import './activity.css';

/** A log's outcome: its word, and under a failure the reason the user was given. */
function Outcome({ log }: { log: ActivityLog }) {
  const { label, kind, reason } = outcomeOf(log);
  return (
    <>
      <Text span size="sm" fw={600} className="activity-outcome" data-outcome={kind}>
        {label}
      </Text>
      {reason && (
        <Text size="xs" className="activity-reason" data-testid="activity-reason" title={reason}>
          {reason}
        </Text>
      )}
    </>
  );
}

export function ActivityTable({ logs, showRecord }: { logs: ActivityLog[]; showRecord?: boolean }) {
  return (
    <Table.ScrollContainer minWidth={560} type="native">
      <Table striped highlightOnHover aria-label="Activity">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Outcome</Table.Th>
            {showRecord && <Table.Th>Collection</Table.Th>}
            {showRecord && <Table.Th>Records</Table.Th>}
            <Table.Th>Team</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {logs.map((log) => (
            <Table.Tr key={log.id} data-testid="activity-row" data-log-id={log.id}>
              <Table.Td>{formatWhen(log.createdAt)}</Table.Td>
              <Table.Td title={log.user.email}>{personName(log.user)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={log.type === 'write' ? 'orange' : 'gray'}>
                  {log.action}
                </Badge>{' '}
                {log.label && (
                  <Text span size="sm">
                    {log.label}
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-testid="activity-outcome" data-outcome={outcomeOf(log).kind}>
                <Outcome log={log} />
              </Table.Td>
              {showRecord && <Table.Td>{log.collection?.name ?? ''}</Table.Td>}
              {showRecord && <Table.Td>{log.recordIds.slice(0, 5).join(', ')}</Table.Td>}
              <Table.Td>{log.team.name}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The activity logs that concern one record, newest first. */
export function RecordActivity({ collection, recordId }: { collection: string; recordId: string }) {
  const paths = usePlatformPaths();
  const logs = useInfiniteQuery({
    queryKey: ['activity', paths.environment, collection, recordId],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      platformJson<Page<ActivityLog>>(
        `${paths.environment}/activity-logs?${activityQuery(
          { collectionName: collection, recordId },
          { limit: '25', ...(pageParam ? { cursor: pageParam } : {}) },
        )}`,
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  return (
    <PagedLogs
      query={logs}
      empty="No activity on this record yet."
      older="Older activity"
      placeholderHeight={120}
    >
      {(rows) => <ActivityTable logs={rows} />}
    </PagedLogs>
  );
}
