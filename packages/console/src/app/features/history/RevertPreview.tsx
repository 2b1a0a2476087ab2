/**
 * The revert preview: every change a revert will make (record, field, current → reverted
 * value) before anything is written. A field changed after the reverted entry is a conflict the
 * user decides on (keep current / revert anyway; kept unless told otherwise). A record the
 * reverted change created is deleted (shown with its values; changed since: a conflict), one it
 * deleted is created again (with the same key when the key is writable; a redacted value that
 * cannot be restored: the user chooses to create it without, or not). Applying sends ordinary
 * writes under one `revert` correlation and says how each record went.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Modal,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  allRevertWrites,
  changeKey,
  type ConflictChoice,
  planRevert,
  recordChoiceKey,
  recordKey,
  type RevertChange,
  type RevertRecreation,
  type RevertRemoval,
  type RevertTargets,
} from '../../../protocol/revert-plan';
import { useSchema } from '../../data';
import { useSession } from '../../session';
import { ErrorMessage } from '../../components/ErrorMessage';
import { applyRevert, loadCurrentValues } from './apply-revert';
import { fieldLabel, recordLabel, valueText } from './history-text';
import { RevertResults } from './RevertResults';

/** What to revert: a title and how to find its targets (entries may need fetching first). */
export interface RevertSource {
  title: string;
  load(): Promise<RevertTargets>;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Rows shown beyond the conflicts (which are always all shown). */
const SHOWN = 200;

function ChangeRow({
  change,
  choice,
  onChoice,
}: {
  change: RevertChange;
  choice: ConflictChoice;
  onChoice: (choice: ConflictChoice) => void;
}) {
  const schema = useSchema();
  const text = (value: unknown) => valueText(schema.data, change.collection, change.field, value);
  return (
    <Table.Tr data-testid="revert-change" data-conflict={change.conflict || undefined}>
      <Table.Td>{recordLabel(change.collection, change.recordId)}</Table.Td>
      <Table.Td title={change.field}>{fieldLabel(change.field)}</Table.Td>
      <Table.Td>
        <Text span size="sm" td="line-through" c="dimmed">
          {text(change.current)}
        </Text>
        {' → '}
        <Text span size="sm" fw={600}>
          {text(change.reverted)}
        </Text>
      </Table.Td>
      <Table.Td>
        {change.conflict ? (
          <Stack gap={4}>
            <Text size="xs" c="orange.8">
              Changed since: the entry wrote {text(change.expected)}
            </Text>
            <SegmentedControl
              size="xs"
              aria-label={`${fieldLabel(change.field)} of ${recordLabel(change.collection, change.recordId)}`}
              value={choice}
              onChange={(value) => onChoice(value as ConflictChoice)}
              data={[
                { value: 'keep', label: 'Keep current' },
                { value: 'revert', label: 'Revert anyway' },
              ]}
            />
          </Stack>
        ) : (
          <Badge variant="light" color="gray">
            Will revert
          </Badge>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function ChoiceControl({
  label,
  value,
  onChoice,
  keep,
  revert,
}: {
  label: string;
  value: ConflictChoice;
  onChoice: (choice: ConflictChoice) => void;
  keep: string;
  revert: string;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label={label}
      value={value}
      onChange={(choice) => onChoice(choice as ConflictChoice)}
      data={[
        { value: 'keep', label: keep },
        { value: 'revert', label: revert },
      ]}
    />
  );
}

/** The values of a record, a few of them, as the record page shows them. */
function someValues(
  schema: ReturnType<typeof useSchema>['data'],
  collection: string,
  values: Record<string, unknown>,
): string {
  const shown = Object.entries(values)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .slice(0, 4)
    .map(
      ([field, value]) => `${fieldLabel(field)}: ${valueText(schema, collection, field, value)}`,
    );
  return shown.join(' · ');
}

/** A whole record the revert deletes or creates again, and the user's choice when it needs one. */
function RecordRevertRow({
  kind,
  collection,
  recordId,
  values,
  what,
  conflict,
  choice,
  onChoice,
}: {
  kind: 'removal' | 'recreation';
  collection: string;
  recordId: string;
  values: Record<string, unknown>;
  what: string;
  /** Why the user must choose (`undefined`: no choice needed). */
  conflict: string | undefined;
  choice: ConflictChoice;
  onChoice: (choice: ConflictChoice) => void;
}) {
  const schema = useSchema();
  const label = recordLabel(collection, recordId);
  const removal = kind === 'removal';
  return (
    <Table.Tr data-testid={`revert-${kind}`} data-conflict={conflict ? true : undefined}>
      <Table.Td>{label}</Table.Td>
      <Table.Td colSpan={2}>
        <Text size="sm">
          {what}{' '}
          <Text span size="xs" c="dimmed">
            {someValues(schema.data, collection, values)}
          </Text>
        </Text>
      </Table.Td>
      <Table.Td miw={90}>
        {conflict ? (
          <Stack gap={4}>
            <Text size="xs" c="orange.8">
              {conflict}
            </Text>
            <ChoiceControl
              label={removal ? `Delete ${label}` : `Create ${label} again`}
              value={choice}
              onChoice={onChoice}
              keep={removal ? 'Keep the record' : 'Stop'}
              revert={removal ? 'Delete anyway' : 'Create without'}
            />
          </Stack>
        ) : (
          <Badge variant="light" color={removal ? 'red' : 'teal'}>
            {removal ? 'Delete' : 'Create'}
          </Badge>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

type RecordRevertProps = Omit<Parameters<typeof RecordRevertRow>[0], keyof Choosing>;

/** The row of a record the revert deletes. */
function removalRow({ collection, recordId, current, conflict, changed }: RevertRemoval) {
  const why = `Changed since: ${changed.map(fieldLabel).join(', ')}`;
  const what = 'Created by this change: deleted by the revert.';
  return {
    kind: 'removal',
    collection,
    recordId,
    values: current,
    what,
    conflict: conflict ? why : undefined,
  } satisfies RecordRevertProps;
}

/** The row of a record the revert creates again. */
function recreationRow(recreation: RevertRecreation): RecordRevertProps {
  const how = recreation.keepsId
    ? 'with the same id.'
    : 'as a new record (its id is given by the database).';
  const redacted = recreation.redacted.map(fieldLabel).join(', ');
  return {
    ...recreation,
    kind: 'recreation',
    what: `Deleted by this change: created again ${how}`,
    conflict: recreation.conflict
      ? `Redacted in the history, cannot be restored: ${redacted}`
      : undefined,
  };
}

interface Choosing {
  choice: ConflictChoice;
  onChoice: (choice: ConflictChoice) => void;
}

export function RevertPreview({ source, onClose }: { source: RevertSource; onClose: () => void }) {
  const { client, workspace } = useSession();
  const schema = useSchema();
  const queryClient = useQueryClient();
  const [choices, setChoices] = useState(new Map<string, ConflictChoice>());
  const [progress, setProgress] = useState(0);
  // Each preview reads the records afresh (never another preview's plan).
  const [previewId] = useState(() => crypto.randomUUID());
  const plan = useQuery({
    queryKey: ['revert-plan', workspace.id, previewId],
    queryFn: async () => {
      const { targets, removals = [], recreations = [], skipped } = await source.load();
      const current = await loadCurrentValues(client, [...targets, ...removals, ...recreations]);
      const planned = planRevert(targets, current.values, skipped, {
        removals,
        recreations,
        collections: schema.data?.collections ?? [],
      });
      return { ...planned, tags: current.tags };
    },
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
    // Which fields a re-creation may send comes from the schema.
    enabled: schema.data !== undefined,
  });
  const writes = plan.data ? allRevertWrites(plan.data, choices) : [];
  const deleted = new Set(
    writes
      .filter((write) => write.kind === 'delete')
      .map((write) => recordKey(write.collection, write.recordId)),
  );
  const choose = (key: string) => (choice: ConflictChoice) =>
    setChoices((previous) => new Map(previous).set(key, choice));
  /** The choice made for a whole record, and how to change it. */
  const choosing = (item: { collection: string; recordId: string }): Choosing => {
    const key = recordChoiceKey(item.collection, item.recordId);
    return { choice: choices.get(key) ?? 'keep', onChoice: choose(key) };
  };
  const apply = useMutation({
    mutationFn: () => applyRevert(client, writes, plan.data?.tags, setProgress),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['history'] });
      // A deleted record's page (the one open, maybe) is read again once the results are closed.
      await queryClient.invalidateQueries({
        queryKey: ['record'],
        predicate: (query) =>
          !deleted.has(recordKey(String(query.queryKey[2]), String(query.queryKey[3]))),
      });
      await queryClient.invalidateQueries({ queryKey: ['list'] });
      await queryClient.invalidateQueries({ queryKey: ['count'] });
    },
  });
  const close = () => {
    if (apply.data && deleted.size > 0)
      void queryClient.invalidateQueries({ queryKey: ['record'] });
    onClose();
  };
  const changes = plan.data?.changes ?? [];
  const conflicts = changes.filter((change) => change.conflict);
  const shown = [...conflicts, ...changes.filter((change) => !change.conflict).slice(0, SHOWN)];
  const removals = plan.data?.removals ?? [];
  const recreations = plan.data?.recreations ?? [];
  const records = new Set(changes.map((change) => recordKey(change.collection, change.recordId)))
    .size;
  const updates = writes.filter((write) => !write.kind);
  const fields = updates.reduce((sum, write) => sum + Object.keys(write.values).length, 0);
  const deletes = writes.filter((write) => write.kind === 'delete').length;
  const creates = writes.filter((write) => write.kind === 'create').length;
  const nothing = changes.length + removals.length + recreations.length === 0;
  const applyLabel =
    deletes + creates === 0
      ? `Revert ${plural(fields, 'field')}`
      : `Revert: ${[
          fields > 0 && plural(fields, 'field'),
          deletes > 0 && `delete ${plural(deletes, 'record')}`,
          creates > 0 && `create ${plural(creates, 'record')} again`,
        ]
          .filter(Boolean)
          .join(', ')}`;
  // Every record needing a choice is listed; of the others, the first ones.
  const needingChoiceFirst = <T extends { conflict: boolean }>(items: T[]) => [
    ...items.filter((item) => item.conflict),
    ...items.filter((item) => !item.conflict).slice(0, SHOWN),
  ];
  const removalsShown = needingChoiceFirst(removals);
  const recreationsShown = needingChoiceFirst(recreations);
  const recordConflicts = [...removals, ...recreations].filter((item) => item.conflict).length;
  return (
    <Modal opened onClose={close} title={source.title} size="xl" data-testid="revert-preview">
      <Stack>
        {plan.isPending && <Text c="dimmed">Reading the records as they are now…</Text>}
        {plan.isError && <ErrorMessage error={plan.error} />}
        {plan.data && !apply.data && (
          <>
            <Text size="sm" data-testid="revert-summary">
              {nothing
                ? 'Nothing to revert: the records already hold these values.'
                : [
                    changes.length > 0 &&
                      `${plural(changes.length, 'field')} in ${plural(records, 'record')} will go back to their earlier value.`,
                    removals.length > 0 &&
                      `${plural(removals.length, 'record')} created by this change will be deleted.`,
                    recreations.length > 0 &&
                      `${plural(recreations.length, 'record')} deleted by this change will be created again.`,
                  ]
                    .filter(Boolean)
                    .join(' ')}
              {plan.data.unchanged > 0 && ` ${plan.data.unchanged} already hold it.`}
            </Text>
            {recordConflicts > 0 && (
              <Alert color="orange" title="Needs your choice" data-testid="revert-record-conflicts">
                {plural(recordConflicts, 'record')} cannot simply be reverted (changed since it was
                created, or values that cannot be restored). Each is left as it is unless you choose
                otherwise below.
              </Alert>
            )}
            {conflicts.length > 0 && (
              <Alert color="orange" title="Changed since" data-testid="revert-conflicts">
                {conflicts.length} field{conflicts.length === 1 ? ' was' : 's were'} changed after
                this entry. They keep their current value unless you choose “Revert anyway”.
              </Alert>
            )}
            {shown.length + removals.length + recreations.length > 0 && (
              <ScrollArea.Autosize mah={380}>
                <Table striped aria-label="Changes of the revert">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Record</Table.Th>
                      <Table.Th>Field</Table.Th>
                      <Table.Th>Current → reverted</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Choice</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {removalsShown.map((removal) => (
                      <RecordRevertRow
                        key={recordChoiceKey(removal.collection, removal.recordId)}
                        {...removalRow(removal)}
                        {...choosing(removal)}
                      />
                    ))}
                    {recreationsShown.map((recreation) => (
                      <RecordRevertRow
                        key={recordChoiceKey(recreation.collection, recreation.recordId)}
                        {...recreationRow(recreation)}
                        {...choosing(recreation)}
                      />
                    ))}
                    {shown.map((change) => (
                      <ChangeRow
                        key={changeKey(change)}
                        change={change}
                        choice={choices.get(changeKey(change)) ?? 'keep'}
                        onChoice={choose(changeKey(change))}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
            )}
            {changes.length > shown.length && (
              <Text size="xs" c="dimmed">
                And {changes.length - shown.length} more changes of the same kind.
              </Text>
            )}
            {removals.length + recreations.length >
              removalsShown.length + recreationsShown.length && (
              <Text size="xs" c="dimmed">
                And{' '}
                {removals.length +
                  recreations.length -
                  removalsShown.length -
                  recreationsShown.length}{' '}
                more records of the same kind.
              </Text>
            )}
            {plan.data.skipped.length > 0 && (
              <Alert color="gray" title="Not reverted">
                <List size="sm">
                  {plan.data.skipped.slice(0, 20).map((skip) => (
                    <List.Item key={`${skip.collection}/${skip.recordId}/${skip.reason}`}>
                      {recordLabel(skip.collection, skip.recordId)}: {skip.reason}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {apply.isError && <ErrorMessage error={apply.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                color="red"
                disabled={writes.length === 0}
                loading={apply.isPending}
                onClick={() => apply.mutate()}
              >
                {apply.isPending ? `Reverting… ${progress}/${writes.length}` : applyLabel}
              </Button>
            </Group>
          </>
        )}
        {apply.data && <RevertResults outcomes={apply.data.outcomes} onClose={close} />}
      </Stack>
    </Modal>
  );
}
