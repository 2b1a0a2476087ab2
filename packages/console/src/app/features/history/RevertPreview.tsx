/**
 * The revert preview: every change a revert will make (record, field, current → reverted
 * value) before anything is written. A field changed after the reverted entry is a conflict the
 * user decides on (keep current / revert anyway; kept unless told otherwise). Applying sends
 * ordinary updates under one `revert` correlation and says how each record went.
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
  changeKey,
  type ConflictChoice,
  planRevert,
  recordKey,
  revertWrites,
  type RevertChange,
  type RevertSkip,
  type RevertTarget,
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
  load(): Promise<{ targets: RevertTarget[]; skipped: RevertSkip[] }>;
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

export function RevertPreview({ source, onClose }: { source: RevertSource; onClose: () => void }) {
  const { client, workspace } = useSession();
  const queryClient = useQueryClient();
  const [choices, setChoices] = useState(new Map<string, ConflictChoice>());
  const [progress, setProgress] = useState(0);
  // Each preview reads the records afresh (never another preview's plan).
  const [previewId] = useState(() => crypto.randomUUID());
  const plan = useQuery({
    queryKey: ['revert-plan', workspace.id, previewId],
    queryFn: async () => {
      const { targets, skipped } = await source.load();
      const current = await loadCurrentValues(client, targets);
      return { ...planRevert(targets, current.values, skipped), tags: current.tags };
    },
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  const writes = plan.data ? revertWrites(plan.data, choices) : [];
  const apply = useMutation({
    mutationFn: () => applyRevert(client, writes, plan.data?.tags, setProgress),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['history'] });
      await queryClient.invalidateQueries({ queryKey: ['record'] });
      await queryClient.invalidateQueries({ queryKey: ['list'] });
    },
  });
  const changes = plan.data?.changes ?? [];
  const conflicts = changes.filter((change) => change.conflict);
  const shown = [...conflicts, ...changes.filter((change) => !change.conflict).slice(0, SHOWN)];
  const records = new Set(changes.map((change) => recordKey(change.collection, change.recordId)))
    .size;
  const fields = writes.reduce((sum, write) => sum + Object.keys(write.values).length, 0);
  return (
    <Modal opened onClose={onClose} title={source.title} size="xl" data-testid="revert-preview">
      <Stack>
        {plan.isPending && <Text c="dimmed">Reading the records as they are now…</Text>}
        {plan.isError && <ErrorMessage error={plan.error} />}
        {plan.data && !apply.data && (
          <>
            <Text size="sm" data-testid="revert-summary">
              {changes.length === 0
                ? 'Nothing to revert: the records already hold these values.'
                : `${plural(changes.length, 'field')} in ${plural(records, 'record')} will go back to their earlier value.`}
              {plan.data.unchanged > 0 && ` ${plan.data.unchanged} already hold it.`}
            </Text>
            {conflicts.length > 0 && (
              <Alert color="orange" title="Changed since" data-testid="revert-conflicts">
                {conflicts.length} field{conflicts.length === 1 ? ' was' : 's were'} changed after
                this entry. They keep their current value unless you choose “Revert anyway”.
              </Alert>
            )}
            {shown.length > 0 && (
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
                    {shown.map((change) => (
                      <ChangeRow
                        key={changeKey(change)}
                        change={change}
                        choice={choices.get(changeKey(change)) ?? 'keep'}
                        onChoice={(choice) =>
                          setChoices((previous) => new Map(previous).set(changeKey(change), choice))
                        }
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
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button
                color="red"
                disabled={writes.length === 0}
                loading={apply.isPending}
                onClick={() => apply.mutate()}
              >
                {apply.isPending
                  ? `Reverting… ${progress}/${writes.length}`
                  : `Revert ${fields} field${fields === 1 ? '' : 's'}`}
              </Button>
            </Group>
          </>
        )}
        {apply.data && <RevertResults outcomes={apply.data.outcomes} onClose={onClose} />}
      </Stack>
    </Modal>
  );
}
