/**
 * Record → History: the record's history as the agent recorded it (agent protocol §13.1), newest
 * first, page by page — who, when, what, and each changed field's value before and after —
 * filtered by people, fields, dates and text, in groups of what one request wrote (across
 * records), with time travel and revert. The tab is shown only when the agent advertises
 * `canUseAuditTrail`.
 */
import { Stack, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  nextHistoryPage,
  type HistoryEntry,
  type HistoryFilters as Filters,
  type HistoryUser,
} from '../../../protocol';
import { targetsOfEntries } from '../../../protocol/revert-plan';
import { collectionOf, useCan, useSchema } from '../../data';
import { useSession } from '../../session';
import { PagedLogs } from '../activity/PagedLogs';
import { HistoryFilters } from './HistoryFilters';
import { HistoryTable } from './HistoryTable';
import { RevertPreview, type RevertSource } from './RevertPreview';
import { justBefore, TimeTravel, type TravelTime } from './TimeTravel';
import { formatWhen } from '../../components/when';
import { useAgentCapabilities } from '../../use-agent-capabilities';

/** Whether the workspace's agent records history (`canUseAuditTrail` in its capabilities). */
export function useHasRecordHistory(): boolean {
  return useAgentCapabilities().canUseAuditTrail === true;
}

/** The entries of the correlations of `entries`, across records (one call per page shown). */
function useCorrelations(collection: string, recordId: string, entries: HistoryEntry[]) {
  const { client, workspace } = useSession();
  const keys = [...new Set(entries.map((entry) => entry.correlationKey))].sort();
  const query = useQuery({
    queryKey: ['history-correlations', workspace.id, collection, recordId, keys],
    queryFn: () => client.correlations(collection, recordId, keys),
    enabled: keys.length > 0,
  });
  const byKey = new Map<string, HistoryEntry[]>();
  for (const entry of query.data ?? []) {
    byKey.set(entry.correlationKey, [...(byKey.get(entry.correlationKey) ?? []), entry]);
  }
  return byKey;
}

/** The history of one record, newest first, 20 entries a page. */
export function RecordHistory({
  collection,
  recordId,
  gone = false,
}: {
  collection: string;
  recordId: string;
  /**
   * The record no longer exists (its page says so): the History, under its own title, is shown
   * only when the agent has entries of it, never an empty list or a second error.
   */
  gone?: boolean;
}) {
  const { client, workspace } = useSession();
  const schema = useSchema();
  const can = useCan();
  const [filters, setFilters] = useState<Filters>({});
  const [users, setUsers] = useState<HistoryUser[]>([]);
  const [revert, setRevert] = useState<RevertSource | null>(null);
  const [travel, setTravel] = useState<TravelTime | null>(null);
  const history = useInfiniteQuery({
    queryKey: ['history', workspace.id, collection, recordId, filters],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      client.recordHistory(collection, recordId, pageParam, undefined, filters),
    getNextPageParam: (_last, pages) => nextHistoryPage(pages),
  });
  // The people who wrote entries of the record, whatever the filters (on each first page): kept
  // while a new filter loads, so that the chosen ones stay shown.
  const firstUsers = history.data?.pages[0]?.meta.availableUsers;
  useEffect(() => {
    if (firstUsers) setUsers(firstUsers);
  }, [firstUsers]);
  const entries = history.data?.pages.flatMap((page) => page.data) ?? [];
  const correlations = useCorrelations(collection, recordId, entries);
  const described = collectionOf(schema.data, collection);
  const fields = (described?.fields ?? [])
    .filter((field) => typeof field.type === 'string' || Array.isArray(field.type))
    .filter((field) => !field.relationship)
    .map((field) => field.field);
  const canRevert = can(collection, 'editEnabled');
  const revertEntry = (entry: HistoryEntry) =>
    setRevert({
      title: 'Revert this change',
      load: async () => targetsOfEntries([entry]),
    });
  const revertGroup = (correlationKey: string) =>
    setRevert({
      title: 'Revert everything this request wrote',
      load: async () =>
        targetsOfEntries(await client.correlations(collection, recordId, [correlationKey])),
    });
  const firstPage = history.data?.pages[0]?.data.length ?? 0;
  if (gone && (history.isError || firstPage === 0)) return null;
  return (
    <Stack>
      {gone && <Title order={3}>History</Title>}
      <TimeTravel
        collection={collection}
        recordId={recordId}
        canRestore={canRevert}
        onRestore={setRevert}
        at={travel}
        onAt={setTravel}
      />
      <HistoryFilters value={filters} onChange={setFilters} users={users} fields={fields} />
      <PagedLogs
        query={history}
        empty="No change recorded on this record yet."
        older="Older changes"
        placeholderHeight={120}
      >
        {(rows) => (
          <HistoryTable
            entries={rows}
            collection={collection}
            recordId={recordId}
            correlations={correlations}
            onRevertEntry={canRevert ? revertEntry : undefined}
            onRevertGroup={canRevert ? revertGroup : undefined}
            onTravel={(entry) =>
              setTravel(
                justBefore(entry.timestamp, `Before the change of ${formatWhen(entry.timestamp)}`),
              )
            }
          />
        )}
      </PagedLogs>
      {revert && <RevertPreview source={revert} onClose={() => setRevert(null)} />}
    </Stack>
  );
}
