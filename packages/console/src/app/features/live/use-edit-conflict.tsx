/**
 * An edit form never overwrites a newer write silently: it saves with `If-Match` and the entity
 * tag of the record it loaded (agent protocol §8.3, §8.5). When the agent refuses (`412`: the
 * record changed since), a dialog shows, for each field both changed, their value and yours to
 * choose from; their changes to other fields are taken. The form then holds the merge, and saves
 * again with the tag of the record as it is now.
 */
import type { AgentRecord } from '@canopy/platform-protocol';
import { Button, Group, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  AgentError,
  etagOf,
  humanize,
  type ConflictData,
  type SchemaCollection,
} from '../../../protocol';
import { Value } from '../../components/Value';
import { applyMerge, mergePlan, type MergePlan } from './record-diff';

type Values = Record<string, unknown>;

interface Pending {
  plan: MergePlan;
  theirs: Values;
  etag: string;
  choices: Record<string, 'theirs' | 'mine'>;
}

export function useEditConflict(options: {
  collection: SchemaCollection | undefined;
  record: AgentRecord | null | undefined;
  /** What the form loaded (or its last merge), and what it holds now. */
  base: Values;
  values: Values;
  /** Puts the merge in the form: `values` to show, `base` to compare the next save with. */
  onMerged(values: Values, base: Values): void;
  /** Saves the form again (after the merge is in it). */
  resubmit(): void;
}) {
  const { collection, record, base, values, onMerged, resubmit } = options;
  const [etag, setEtag] = useState<string>();
  const [pending, setPending] = useState<Pending>();
  const [resave, setResave] = useState(0);
  // The tag of the record the form (re)loaded.
  useEffect(() => setEtag(etagOf(record)), [record]);
  // Saved again once the merged values are in the form.
  useEffect(() => {
    if (resave) resubmit();
  }, [resave]);

  /** `true` when `error` is a conflict, which the dialog now handles. */
  const handle = (error: unknown): boolean => {
    if (!(error instanceof AgentError) || error.status !== 412 || !collection) return false;
    const data = (error.data ?? {}) as ConflictData;
    if (!data.current || !data.etag) return false; // Deleted or out of scope: said as an error.
    // Read-only fields (computed ones among them) are never sent: nothing to choose there.
    const fields = collection.fields.filter((f) => !f.isReadOnly).map((f) => f.field);
    const plan = mergePlan(fields, base, values, data.current);
    const choices = Object.fromEntries(plan.conflicts.map((c) => [c.field, 'mine' as const]));
    setPending({ plan, theirs: data.current, etag: data.etag, choices });
    return true;
  };

  const save = () => {
    if (!pending) return;
    const merged = applyMerge(pending.plan, base, values, pending.theirs, pending.choices);
    setEtag(pending.etag);
    onMerged(merged.values, merged.base);
    setPending(undefined);
    setResave((count) => count + 1);
  };

  const fieldOf = (name: string) => collection!.fields.find((f) => f.field === name)!;
  const dialog = (
    <Modal
      opened={pending !== undefined}
      onClose={() => setPending(undefined)}
      title="Someone changed this record while you edited it"
      size="lg"
      centered
    >
      {pending && (
        <Stack data-testid="merge-dialog">
          {pending.plan.conflicts.length > 0 ? (
            <>
              <Text size="sm">Choose, for each field you both changed, the value to keep.</Text>
              <Table withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Their value</Table.Th>
                    <Table.Th>Your value</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {pending.plan.conflicts.map(({ field, theirs, mine }) => {
                    const choose = (side: 'theirs' | 'mine') =>
                      setPending({ ...pending, choices: { ...pending.choices, [field]: side } });
                    const label = humanize(field);
                    return (
                      <Table.Tr key={field} data-testid={`conflict-${field}`}>
                        <Table.Td fw={600}>{label}</Table.Td>
                        {(['theirs', 'mine'] as const).map((side) => (
                          <Table.Td key={side}>
                            <Group gap="xs" wrap="nowrap">
                              <Radio
                                checked={pending.choices[field] === side}
                                onChange={() => choose(side)}
                                aria-label={`${side === 'theirs' ? 'Their' : 'Your'} ${label}`}
                                name={`merge-${field}`}
                              />
                              <Value
                                field={fieldOf(field)}
                                value={side === 'theirs' ? theirs : mine}
                                compact
                              />
                            </Group>
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </>
          ) : (
            <Text size="sm">Your changes do not touch the fields they changed.</Text>
          )}
          {pending.plan.theirsOnly.length > 0 && (
            <Text size="sm" c="dimmed">
              Their changes to {pending.plan.theirsOnly.map(humanize).join(', ')} are kept.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPending(undefined)}>
              Keep editing
            </Button>
            <Button onClick={save}>Save the merge</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
  return { etag, handle, dialog };
}
