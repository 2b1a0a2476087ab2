/**
 * What a table shows while it is "as of" a past time: its
 * columns, read-only, with the first cell of a row marked when the row changed since or did not
 * exist then, and each changed cell showing its value then (through the column's own rendering)
 * over its value now; and the banner above the table that counts them and leads back to now.
 */
import { Alert, Box, Button, Group, Loader, Text } from '@mantine/core';
import type { AgentRecord } from '../../../protocol';
import { changedThen, rowThen, type RecordStateAt } from '../../../protocol/as-of';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatDateTime } from '../../components/format';
import type { CellColumn } from '../../components/table/cell-columns';
import './as-of.css';

/** The moment as the page names it (the user's locale and time zone). */
export function asOfLabel(at: string): string {
  return formatDateTime(at);
}

function Mark({ state, label }: { state: RecordStateAt | undefined; label: string }) {
  const kind = rowThen(state);
  if (kind === 'same') return null;
  const name = kind === 'new' ? `Did not exist on ${label}` : `Changed since ${label}`;
  return (
    <span
      className="asof-badge"
      data-testid="as-of-mark"
      data-kind={kind}
      role="img"
      aria-label={name}
      title={name}
    >
      {kind === 'new' ? 'did not exist then' : 'changed'}
    </span>
  );
}

/** The record with its values then laid over its values now. */
function recordThen(record: AgentRecord, state: RecordStateAt): AgentRecord {
  return { ...record, values: { ...record.values, ...state.values } };
}

export function asOfColumns(
  columns: readonly CellColumn[],
  states: ReadonlyMap<string, RecordStateAt>,
  label: string,
): CellColumn[] {
  return columns.map((column, index) => ({
    id: column.id,
    render: (record: AgentRecord) => {
      const state = states.get(record.id);
      const cell = changedThen(state, column.id) ? (
        <span className="asof-cell" data-testid="as-of-cell" data-field={column.id}>
          <span className="asof-then">{column.render(recordThen(record, state!))}</span>
          <span className="asof-now">now: {column.render(record)}</span>
        </span>
      ) : (
        column.render(record)
      );
      if (index > 0) return cell;
      return (
        <>
          <Mark state={state} label={label} />
          {cell}
        </>
      );
    },
  }));
}

export function AsOfBanner({
  name,
  label,
  states,
  fetching,
  error,
  onNow,
}: {
  /** The collection's name in a sentence (`orders`). */
  name: string;
  label: string;
  /** The page's states, once the agent answered. */
  states: RecordStateAt[] | undefined;
  fetching: boolean;
  error: unknown;
  onNow(): void;
}) {
  const kinds = (states ?? []).map(rowThen);
  const changed = kinds.filter((kind) => kind === 'changed').length;
  const created = kinds.filter((kind) => kind === 'new').length;
  return (
    <Alert color="yellow" variant="light" p="xs" data-testid="as-of-banner">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" aria-live="polite">
          {`Showing this page of ${name} as of ${label}`}
          {states &&
            `: ${changed} changed since, ${created} did not exist then. Editing is off while viewing the past.`}
        </Text>
        {fetching && <Loader size="xs" aria-label="Loading the past values" />}
        <Button size="xs" variant="default" onClick={onNow}>
          Back to now
        </Button>
      </Group>
      {error ? (
        <Box mt={4} c="red" role="alert">
          <ErrorMessage error={error} />
        </Box>
      ) : null}
    </Alert>
  );
}
