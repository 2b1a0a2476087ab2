/**
 * Time travel on the record page: pick a date and time, see the record as the history recorded
 * it then (agent protocol §13.1, `…/state?at=`), each field next to its value now, the fields
 * that changed since highlighted (then → now). Restoring opens the revert preview.
 */
import { Alert, Button, Group, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AgentError } from '../../../protocol';
import { sameRevertValue, targetOfState } from '../../../protocol/revert-plan';
import { useRecord, useSchema } from '../../data';
import { useSession } from '../../session';
import { DateTimePicker } from '../../components/lazy-dates';
import { ErrorMessage } from '../../components/ErrorMessage';
import { fieldLabel, valueText } from './history-text';
import type { RevertSource } from './RevertPreview';

/** A moment to look at: what the agent is sent (`at`), and how the page names it. */
export interface TravelTime {
  /** A local date-time (read in the user's time zone) or an instant with offset. */
  at: string;
  label: string;
  /** The picker's own value, when the moment was picked there. */
  picked?: string;
}

/** The picker's local `YYYY-MM-DD HH:mm:ss` as a moment (the agent reads it in `timezone`). */
export function pickedTime(value: string): TravelTime {
  return { at: value.trim().replace(' ', 'T'), label: value, picked: value };
}

/** Just before an entry was written (its timestamp minus one millisecond). */
export function justBefore(timestamp: string, label: string): TravelTime {
  return { at: new Date(Date.parse(timestamp) - 1).toISOString(), label };
}

export function TimeTravel({
  collection,
  recordId,
  canRestore,
  onRestore,
  at,
  onAt,
}: {
  collection: string;
  recordId: string;
  canRestore: boolean;
  onRestore: (source: RevertSource) => void;
  at: TravelTime | null;
  onAt: (at: TravelTime | null) => void;
}) {
  const { client, workspace } = useSession();
  const schema = useSchema();
  const current = useRecord(collection, recordId);
  const state = useQuery({
    queryKey: ['history-state', workspace.id, collection, recordId, at?.at],
    queryFn: () => client.recordState(collection, recordId, at!.at),
    enabled: at !== null,
    retry: false,
  });
  const now = current.data?.values ?? {};
  const rows = Object.entries(state.data ?? {}).map(([field, then]) => ({
    field,
    then,
    now: now[field],
    changed: !sameRevertValue(then, now[field]),
  }));
  const changed = rows.filter((row) => row.changed).length;
  const text = (field: string, value: unknown) => valueText(schema.data, collection, field, value);
  const notYet = state.error instanceof AgentError && state.error.status === 404;
  return (
    <Paper withBorder p="sm" data-testid="time-travel">
      <Group align="flex-end" gap="sm">
        <DateTimePicker
          label="See this record as it was at"
          size="xs"
          w={240}
          clearable
          withSeconds
          placeholder="Pick a date and time"
          value={at?.picked ?? null}
          maxDate={new Date()}
          onChange={(value) => onAt(value ? pickedTime(value as string) : null)}
        />
        {state.data && (
          <Text size="sm" c="dimmed" data-testid="time-travel-summary">
            {at && !at.picked && `${at.label}: `}
            {changed === 0
              ? 'Same values as now.'
              : `${changed} field${changed === 1 ? '' : 's'} changed since.`}
          </Text>
        )}
        {at && (
          <Button size="xs" variant="subtle" onClick={() => onAt(null)}>
            Back to now
          </Button>
        )}
        {state.data && changed > 0 && canRestore && (
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() =>
              onRestore({
                title: `Restore the values of ${at?.label ?? 'then'}`,
                load: async () => ({
                  targets: [targetOfState(collection, recordId, state.data)],
                  skipped: [],
                }),
              })
            }
          >
            Restore these values…
          </Button>
        )}
      </Group>
      {notYet && (
        <Text size="sm" c="dimmed" mt="xs">
          The history has no values of this record at that time (it was created later, or deleted
          then).
        </Text>
      )}
      {state.isError && !notYet && (
        <Alert color="red" mt="xs">
          <ErrorMessage error={state.error} />
        </Alert>
      )}
      {state.data && (
        <Table mt="xs" aria-label="The record then and now" data-testid="time-travel-diff">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Then → now</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr
                key={row.field}
                data-testid="time-travel-field"
                data-field={row.field}
                data-changed={row.changed || undefined}
                bg={row.changed ? 'var(--mantine-color-yellow-light)' : undefined}
              >
                <Table.Td title={row.field} fw={row.changed ? 600 : undefined}>
                  {fieldLabel(row.field)}
                </Table.Td>
                <Table.Td>
                  {row.changed ? (
                    <>
                      <Text span size="sm">
                        {text(row.field, row.then)}
                      </Text>
                      {' → '}
                      <Text span size="sm" c="dimmed">
                        {text(row.field, row.now)}
                      </Text>
                    </>
                  ) : (
                    <Text span size="sm" c="dimmed">
                      {text(row.field, row.then)}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
