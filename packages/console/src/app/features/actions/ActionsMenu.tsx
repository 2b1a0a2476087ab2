/**
 * The action buttons of a place: the table (bulk actions on the selection, single ones when one
 * record is selected, global ones always), or a record (its single and bulk actions). Only the
 * actions the role may trigger are listed; the dialog does the rest.
 */
import { Badge, Button, Menu } from '@mantine/core';
import { IconBolt, IconChevronDown } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import type { ActionSelection, SchemaAction, SchemaCollection } from '../../../protocol';
import { useWorkspace } from '../../workspace';

// The dialog (its form inputs, the sanitizer of HTML results) loads when an action is first run.
const ActionDialog = lazy(() =>
  import('./ActionDialog').then((module) => ({ default: module.ActionDialog })),
);

/** What an action runs on, in the user's words (the protocol says single, bulk or global). */
export function scopeLabel(type: string | undefined): string {
  if (type === 'bulk') return 'Selected records';
  if (type === 'global') return 'Whole collection';
  return 'One record';
}

export function ActionsMenu({
  collection,
  selection,
  place,
}: {
  collection: SchemaCollection;
  selection: ActionSelection;
  place: 'table' | 'record';
}) {
  const { canAction } = useWorkspace();
  const [open, setOpen] = useState<{ action: SchemaAction; selection: ActionSelection }>();
  const actions = ((collection.actions ?? []) as SchemaAction[]).filter((action) =>
    canAction(collection.name, action.name, 'triggerEnabled'),
  );
  if (actions.length === 0) return null;
  const count = selection.count ?? selection.ids.length;
  const usable = (action: SchemaAction) => {
    const type = action.type ?? 'single';
    if (type === 'global') return place === 'table';
    if (type === 'single') return count === 1;
    return count >= 1;
  };
  const shown = actions.filter((action) => place === 'table' || action.type !== 'global');
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="light"
            leftSection={<IconBolt size={16} />}
            rightSection={<IconChevronDown size={14} />}
            data-testid="actions-menu"
          >
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {shown.map((action) => (
            <Menu.Item
              key={action.id ?? action.name}
              disabled={!usable(action)}
              onClick={() =>
                setOpen({
                  action,
                  selection: action.type === 'global' ? { ids: [] } : selection,
                })
              }
              rightSection={
                canAction(collection.name, action.name, 'approvalRequired') ? (
                  <Badge size="xs" color="yellow" variant="light" tt="none">
                    Needs approval
                  </Badge>
                ) : (
                  <Badge size="xs" variant="default" tt="none">
                    {scopeLabel(action.type)}
                  </Badge>
                )
              }
            >
              {action.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {open && (
        <Suspense>
          <ActionDialog
            collection={collection.name}
            action={open.action}
            selection={open.selection}
            onClose={() => setOpen(undefined)}
          />
        </Suspense>
      )}
    </>
  );
}
