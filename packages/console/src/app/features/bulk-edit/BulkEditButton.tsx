/** The selection toolbar's "Edit N records" button (shown when the role may edit). */
import { Button } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { formatCount } from '../../components/table/selection';

export function BulkEditButton({ count, onClick }: { count: number; onClick(): void }) {
  if (count === 0) return null;
  return (
    <Button variant="light" leftSection={<IconPencil size={16} />} onClick={onClick}>
      Edit {formatCount(count)}
    </Button>
  );
}
