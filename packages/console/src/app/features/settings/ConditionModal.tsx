import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type {
  AgentSchema,
  ConditionBranch,
  ConditionTree,
  FieldOperators,
} from '../../../protocol';
import { asGroup, FilterBuilder, filterableFields } from '../../components/FilterBuilder';

/**
 * Edits a condition tree on one collection with the console's filter builder; with `operators`
 * (the agent's capabilities) only what the agent can filter is offered.
 */
export function ConditionModal({
  title,
  description,
  schema,
  collection,
  operators,
  value,
  onSave,
  onClose,
}: {
  title: string;
  description: string;
  schema: AgentSchema;
  collection: string;
  operators?: FieldOperators;
  value: ConditionTree | undefined;
  onSave(tree: ConditionBranch | undefined): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState<ConditionBranch>(() => asGroup(value));
  const target = schema.collections.find((c) => c.name === collection);
  return (
    // The filter builder's pickers open in place (not in a portal): let them reach past the
    // dialog's edge instead of being clipped by its scroll area.
    <Modal
      opened
      onClose={onClose}
      title={title}
      size="xl"
      styles={{ content: { overflow: 'visible' }, body: { overflow: 'visible' } }}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
        {target ? (
          <FilterBuilder
            value={draft}
            fields={filterableFields(schema, target, operators)}
            onChange={setDraft}
          />
        ) : (
          <Text c="red" size="sm">
            The schema has no collection named “{collection}”.
          </Text>
        )}
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="gray"
            onClick={() => {
              onSave(undefined);
              onClose();
            }}
          >
            Remove the condition
          </Button>
          <Group>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                onSave(draft);
                onClose();
              }}
            >
              Apply
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
