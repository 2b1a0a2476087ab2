/**
 * The "Layout" button of a collection's list, for layout editors only; its panel
 * (LayoutPanel.tsx) loads on the first click, so members who never open it never download it.
 */
import { Button } from '@mantine/core';
import { IconLayoutColumns } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import type { SchemaCollection } from '../../protocol';
import { useTeamLayout } from './team-layout';

const LayoutPanel = lazy(() => import('./LayoutPanel'));

/** The "Layout" button and its panel; nothing for members who may not edit the layout. */
export function LayoutButton({
  collection,
  visible,
}: {
  collection: SchemaCollection;
  visible: string[];
}) {
  const team = useTeamLayout();
  const [open, setOpen] = useState(false);
  if (!team.canEdit) return null;
  return (
    <>
      <Button
        variant={open ? 'light' : 'default'}
        leftSection={<IconLayoutColumns size={16} />}
        onClick={() => setOpen(true)}
      >
        Layout
      </Button>
      {open && (
        <Suspense fallback={null}>
          <LayoutPanel collection={collection} visible={visible} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
