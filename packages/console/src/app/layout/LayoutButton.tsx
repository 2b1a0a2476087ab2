/**
 * The "Layout" buttons of layout mode, for layout editors only: on a collection's list, on a
 * record page, on a form, in the sidebar. Each panel loads on the first click, so members who
 * never open one never download it.
 */
import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconLayoutColumns } from '@tabler/icons-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { SchemaCollection } from '../../protocol';
import { useTeamLayout } from './team-layout';

const LayoutPanel = lazy(() => import('./LayoutPanel'));
const RecordLayoutPanel = lazy(() => import('./RecordLayoutPanel'));
const FormLayoutPanel = lazy(() => import('./FormLayoutPanel'));
const SidebarLayoutPanel = lazy(() => import('./SidebarLayoutPanel'));

/** The button and, once clicked, its panel; nothing for members who may not edit the layout. */
function ModeButton({
  compact = false,
  wideOnly = false,
  panel,
}: {
  /** An icon only (the sidebar). */
  compact?: boolean;
  /** Not on a phone, where the toolbar it sits in has no room for it (a record's header). */
  wideOnly?: boolean;
  panel(close: () => void): ReactNode;
}) {
  const team = useTeamLayout();
  const [open, setOpen] = useState(false);
  if (!team.canEdit) return null;
  const icon = <IconLayoutColumns size={16} />;
  return (
    <>
      {compact ? (
        <Tooltip label="Layout of the sidebar">
          <ActionIcon
            variant={open ? 'light' : 'subtle'}
            aria-label="Layout of the sidebar"
            onClick={() => setOpen(true)}
          >
            {icon}
          </ActionIcon>
        </Tooltip>
      ) : (
        <Button
          variant={open ? 'light' : 'default'}
          leftSection={icon}
          onClick={() => setOpen(true)}
          visibleFrom={wideOnly ? 'sm' : undefined}
        >
          Layout
        </Button>
      )}
      {open && <Suspense fallback={null}>{panel(() => setOpen(false))}</Suspense>}
    </>
  );
}

/** A collection's list: columns, widths, widgets. */
export function LayoutButton({
  collection,
  visible,
}: {
  collection: SchemaCollection;
  visible: string[];
}) {
  return (
    <ModeButton
      panel={(close) => <LayoutPanel collection={collection} visible={visible} onClose={close} />}
    />
  );
}

/** A record page: tabs, sections, related tabs, read-only fields. */
export function RecordLayoutButton({ collection }: { collection: SchemaCollection }) {
  return (
    <ModeButton
      wideOnly
      panel={(close) => <RecordLayoutPanel collection={collection} onClose={close} />}
    />
  );
}

/** A create or edit form: sections, fields in order, read-only when editing. */
export function FormLayoutButton({
  collection,
  mode,
}: {
  collection: SchemaCollection;
  mode: 'create' | 'edit';
}) {
  return (
    <ModeButton
      panel={(close) => <FormLayoutPanel collection={collection} mode={mode} onClose={close} />}
    />
  );
}

/** The sidebar: order, groups, names, hidden collections. */
export function SidebarLayoutButton({ collections }: { collections: string[] }) {
  return (
    <ModeButton
      compact
      panel={(close) => <SidebarLayoutPanel collections={collections} onClose={close} />}
    />
  );
}
