/**
 * Layout mode on the sidebar (sidebar-edit.ts): the collections in order, each with the name it
 * shows, its icon, the group it sits in, and whether it is hidden, and each group's icon, as the
 * editor's draft for a team,
 * previewed live in the sidebar. A collection the user may not browse never shows, whatever the
 * layout says.
 */
import { Button, Checkbox, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { humanize } from '../../protocol';
import { moveItem } from './layout-edit';
import { LayoutDrawer } from './LayoutDrawer';
import { IconPicker } from './IconPicker';
import { MoveButtons } from './MoveButtons';
import { replaceItem } from './record-layout-edit';
import { groupIcons, setGroupIcon, setSidebar, sidebarRows, type SidebarRow } from './sidebar-edit';

export default function SidebarLayoutPanel({
  collections,
  onClose,
}: {
  collections: string[];
  onClose(): void;
}) {
  return (
    <LayoutDrawer title="Layout of the sidebar" onClose={onClose}>
      {(editor) => {
        const rows = sidebarRows(editor.draft, collections);
        const commit = (next: SidebarRow[]) => editor.change(setSidebar(editor.draft, next));
        const icons = groupIcons(editor.draft);
        const groups = [...new Set(rows.map((row) => row.group?.trim()).filter(Boolean))];
        return (
          <>
            {groups.length > 0 && (
              <Paper withBorder p="xs" radius="sm">
                <Stack gap={4}>
                  <Text size="sm" fw={500}>
                    Icons of the groups
                  </Text>
                  {groups.map((group) => (
                    <Group key={group} gap="xs" wrap="nowrap" grow>
                      <Text size="sm">{group}</Text>
                      <IconPicker
                        label={`Icon of group ${group}`}
                        value={icons[group!]}
                        onChange={(icon) => editor.change(setGroupIcon(editor.draft, group!, icon))}
                      />
                    </Group>
                  ))}
                </Stack>
              </Paper>
            )}
            {rows.map((row, index) => {
              const name = humanize(row.collection);
              const set = (change: Partial<SidebarRow>) =>
                commit(replaceItem(rows, index, { ...row, ...change }));
              return (
                <Paper key={row.collection} withBorder p="xs" radius="sm">
                  <Stack gap={4}>
                    <Group justify="space-between" wrap="nowrap" gap={4}>
                      <Checkbox
                        size="xs"
                        label={name}
                        aria-label={`Show ${name}`}
                        checked={!row.hidden}
                        onChange={(event) => set({ hidden: !event.currentTarget.checked })}
                      />
                      <MoveButtons
                        name={name}
                        first={index === 0}
                        last={index === rows.length - 1}
                        onMove={(by) => commit(moveItem(rows, index, by))}
                      />
                    </Group>
                    <Group grow gap="xs">
                      <TextInput
                        size="xs"
                        aria-label={`Name of ${name}`}
                        placeholder={name}
                        value={row.displayName ?? ''}
                        onChange={(event) => set({ displayName: event.currentTarget.value })}
                      />
                      <TextInput
                        size="xs"
                        aria-label={`Group of ${name}`}
                        placeholder="No group"
                        value={row.group ?? ''}
                        onChange={(event) => set({ group: event.currentTarget.value })}
                      />
                    </Group>
                    <IconPicker
                      label={`Icon of ${name}`}
                      value={row.icon}
                      onChange={(icon) => set({ icon })}
                    />
                  </Stack>
                </Paper>
              );
            })}
            <Button
              variant="subtle"
              size="xs"
              onClick={() => commit(sidebarRows(null, collections))}
            >
              Back to the default sidebar
            </Button>
          </>
        );
      }}
    </LayoutDrawer>
  );
}
