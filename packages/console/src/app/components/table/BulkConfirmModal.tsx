/**
 * The confirmation of a bulk delete or dissociate (BulkActions.tsx asks for it). Loaded when first
 * asked for: the first screen does without it (and without Mantine's modal).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { bulkConfirmText, type BulkMode } from './bulk-change';

export function BulkConfirmModal({
  mode,
  count,
  onCancel,
  onConfirm,
}: {
  mode: BulkMode | undefined;
  count: number;
  onCancel(): void;
  onConfirm(mode: BulkMode): void;
}) {
  const words = bulkConfirmText(mode, count);
  return (
    <Modal opened={mode !== undefined} onClose={onCancel} title={words.title} centered>
      <Stack>
        <Text size="sm">{words.text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            color={mode === 'dissociate' ? 'orange' : 'red'}
            onClick={() => onConfirm(mode!)}
            data-autofocus
          >
            {words.button}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
