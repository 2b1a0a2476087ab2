/** The bulk actions bar's buttons on the selection (their confirmation: BulkConfirmModal.tsx). */
import { Button } from '@mantine/core';
import { IconTrash, IconUnlink } from '@tabler/icons-react';
import type { BulkMode } from './bulk-change';
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
