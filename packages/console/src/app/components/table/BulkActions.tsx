/** The bulk actions bar's buttons on the selection, and their confirmation dialog. */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconTrash, IconUnlink } from '@tabler/icons-react';
import { bulkConfirmText, type BulkMode } from './bulk-change';
import { formatCount } from './selection';

export function BulkButtons({
  count,
  related,
  canDissociate,
  canDelete,
  ask,
}: {
  /** Records selected. */
  count: number;
  /** A related tab: deleting goes through the relation. */
  related: boolean;
  canDissociate: boolean;
  canDelete: boolean;
  ask(mode: BulkMode): void;
}) {
  if (count === 0) return null;
  return (
    <>
      {related && canDissociate && (
        <Button
          color="orange"
          variant="light"
          leftSection={<IconUnlink size={16} />}
          onClick={() => ask('dissociate')}
        >
          Dissociate {formatCount(count)}
        </Button>
      )}
      {canDelete && (
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          onClick={() => ask(related ? 'delete-related' : 'delete')}
        >
          Delete {formatCount(count)}
        </Button>
      )}
    </>
  );
}

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
