import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  TextInput,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '../../components/lazy-dates';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { platformFetch, platformJson, usePlatformPaths } from '../../platform-calls';
import type { Page } from '../notes/notes-api';
import {
  ACTIONS,
  OUTCOMES,
  activityQuery,
  effectiveFilters,
  type ActivityFilters,
  type ActivityLog,
  type AdminLog,
} from './activity-api';
import { PagedLogs } from './PagedLogs';
import { ActivityTable } from './RecordActivity';
import { formatWhen } from '../../components/when';
import { formatJsonInline, personName } from '../../components/format';

/** Saves a streamed answer as a file, reading it chunk by chunk. */
async function download(response: Response, name: string, type: string): Promise<number> {
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
  }
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return bytes;
}

/** The project's activity log (filters, keyset paging, export) and admin log (admins). */
export function ActivityPage() {
  const paths = usePlatformPaths();
  const [draft, setDraft] = useState<ActivityFilters>({});
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [applied, setFilters] = useState<ActivityFilters>({});
  const [showReads, setShowReads] = useState(false);
  const filters = effectiveFilters(applied, showReads);
  const logs = useInfiniteQuery({
    queryKey: ['activity', paths.environment, 'all', filters],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      platformJson<Page<ActivityLog>>(
        `${paths.environment}/activity-logs?${activityQuery(filters, {
          limit: '50',
          ...(pageParam ? { cursor: pageParam } : {}),
        })}`,
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  const admin = useInfiniteQuery({
    queryKey: ['admin-logs', paths.project],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      platformJson<Page<AdminLog>>(
        `${paths.project}/admin-logs?${new URLSearchParams({
          limit: '50',
          ...(pageParam ? { cursor: pageParam } : {}),
        })}`,
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  const exporting = useMutation({
    mutationFn: async (format: 'csv' | 'ndjson') => {
      const response = await platformFetch(
        `${paths.environment}/activity-logs/export?${activityQuery(filters, { format })}`,
        { headers: { accept: format === 'csv' ? 'text/csv' : 'application/x-ndjson' } },
      );
      return download(
        response,
        `activity-logs.${format === 'csv' ? 'csv' : 'ndjson'}`,
        format === 'csv' ? 'text/csv' : 'application/x-ndjson',
      );
    },
  });
  const apply = () => {
    const iso = (value: string | null, end = false) => {
      if (!value) return undefined;
      const date = new Date(`${value}T00:00:00`);
      if (end) date.setDate(date.getDate() + 1);
      return date.toISOString();
    };
    setFilters({ ...draft, from: iso(range[0]), to: iso(range[1], true) });
  };
  const field = (key: keyof ActivityFilters, label: string) => (
    <TextInput
      label={label}
      size="xs"
      value={draft[key] ?? ''}
      onChange={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
      onKeyDown={(e) => e.key === 'Enter' && apply()}
    />
  );
  return (
    <Stack p={{ base: 0, sm: 'md' }}>
      <Title order={2}>Activity</Title>
      <Tabs defaultValue="activity" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="activity">Activity log</Tabs.Tab>
          <Tabs.Tab value="admin">Admin log</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="activity" pt="md">
          <Stack>
            <Group align="flex-end" gap="xs">
              {field('userEmail', 'User email')}
              {field('teamName', 'Team')}
              {field('collectionName', 'Collection')}
              {field('recordId', 'Record id')}
              <Select
                label="Action"
                size="xs"
                w={150}
                clearable
                searchable
                data={ACTIONS}
                value={draft.action ?? null}
                onChange={(value) => setDraft({ ...draft, action: value ?? undefined })}
              />
              <Select
                label="Type"
                size="xs"
                w={100}
                clearable
                data={['read', 'write']}
                value={draft.type ?? null}
                onChange={(value) => setDraft({ ...draft, type: value ?? undefined })}
              />
              <Select
                label="Outcome"
                size="xs"
                w={130}
                clearable
                data={OUTCOMES}
                value={draft.status ?? null}
                onChange={(value) => setDraft({ ...draft, status: value ?? undefined })}
              />
              <DatePickerInput
                type="range"
                label="Dates"
                size="xs"
                w={220}
                clearable
                value={range}
                onChange={(value) => setRange(value as [string | null, string | null])}
              />
              <Button size="xs" onClick={apply}>
                Apply
              </Button>
              <Button
                size="xs"
                variant="default"
                loading={exporting.isPending}
                onClick={() => exporting.mutate('csv')}
              >
                Export CSV
              </Button>
              <Button
                size="xs"
                variant="default"
                loading={exporting.isPending}
                onClick={() => exporting.mutate('ndjson')}
              >
                Export NDJSON
              </Button>
            </Group>
            <Switch
              label="Show reads (index, search, related data)"
              checked={showReads}
              disabled={Boolean(applied.type)}
              onChange={(event) => setShowReads(event.currentTarget.checked)}
            />
            {exporting.isError && <Alert color="red">{exporting.error.message}</Alert>}
            <PagedLogs
              query={logs}
              empty="No activity matches."
              older="Older activity"
              placeholderHeight={200}
            >
              {(rows) => <ActivityTable logs={rows} showRecord />}
            </PagedLogs>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="admin" pt="md">
          <PagedLogs
            query={admin}
            empty="No admin change yet."
            older="Older changes"
            placeholderHeight={200}
          >
            {(adminRows) => (
              <Table striped aria-label="Admin log">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Who</Table.Th>
                    <Table.Th>Change</Table.Th>
                    <Table.Th>Values</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {adminRows.map((log) => (
                    <Table.Tr key={log.id}>
                      <Table.Td>{formatWhen(log.createdAt)}</Table.Td>
                      <Table.Td title={log.user?.email}>
                        {(log.user && personName(log.user)) || log.initiator}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light">{log.type}</Badge> {log.resource}
                      </Table.Td>
                      <Table.Td>
                        <Code>{formatJsonInline(log.newValue ?? log.previousValue ?? null)}</Code>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </PagedLogs>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
