/**
 * The table's toolbar: the title, the search box, the view's controls (filter, segment) and the
 * actions (actions menu, bulk actions, columns, export, associate, new). On a phone (up to 36em)
 * it is one row: the search box and one button that shows the rest below it, instead of three
 * wrapped rows.
 */
import { Badge, Button, Collapse, Group, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';

/** The width below which the toolbar collapses (Mantine's `xs` breakpoint). */
export const PHONE_QUERY = '(max-width: 36em)';

export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}

export function TableToolbar({
  phone,
  title,
  search,
  view,
  actions,
  active,
}: {
  phone: boolean;
  title: ReactNode;
  search: ReactNode;
  /** The filter and segment controls. */
  view: ReactNode;
  /** The actions group (actions menu, bulk buttons, columns, export, associate, new). */
  actions: ReactNode;
  /** What the collapsed controls hold that changes the list (filter conditions, selection). */
  active: number;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!phone) {
    return (
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          {title}
          {search}
          {view}
        </Group>
        <Group gap="xs" wrap="wrap">
          {actions}
        </Group>
      </Group>
    );
  }
  return (
    <Stack gap="xs" data-testid="table-toolbar" data-collapsed={!open}>
      {title}
      <Group gap="xs" wrap="nowrap">
        {search}
        <Button
          variant={open ? 'light' : 'default'}
          px="sm"
          onClick={() => setOpen((was) => !was)}
          aria-expanded={open}
          aria-controls={panelId}
          aria-label="Filter and actions"
          rightSection={
            active > 0 ? (
              <Badge size="xs" circle>
                {active}
              </Badge>
            ) : undefined
          }
        >
          <IconAdjustmentsHorizontal size={18} aria-hidden />
        </Button>
      </Group>
      <Collapse in={open} id={panelId}>
        <Group gap="xs" wrap="wrap">
          {view}
          {actions}
        </Group>
      </Collapse>
    </Stack>
  );
}
