/**
 * One tab of a record page in layout mode (RecordLayoutPanel.tsx): its title, its place, and —
 * for a tab of fields — its sections and their fields (a field picked here leaves the section it
 * was in). A related tab shows the records of its collection.
 */
import { ActionIcon, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { humanize } from '../../protocol';
import { SectionsEditor } from './SectionsEditor';
import {
  moveItem,
  removeItem,
  replaceItem,
  setSectionFields,
  type EditedTab,
} from './record-layout-edit';

export function TabEditor({
  tabs,
  index,
  options,
  onChange,
}: {
  tabs: EditedTab[];
  index: number;
  options: { value: string; label: string }[];
  onChange(tabs: EditedTab[]): void;
}) {
  const tab = tabs[index]!;
  const related = 'related' in tab;
  const title = related ? (tab.title ?? humanize(tab.related)) : tab.title;
  const set = (next: EditedTab) => onChange(replaceItem(tabs, index, next));
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="layout-tab">
      <Stack gap={6}>
        <Group gap={4} wrap="nowrap" align="flex-end">
          <TextInput
            size="xs"
            flex={1}
            label={related ? `Tab of ${humanize(tab.related)}` : 'Tab of fields'}
            aria-label={`Title of tab ${title}`}
            value={related ? (tab.title ?? '') : tab.title}
            placeholder={related ? humanize(tab.related) : 'Title'}
            onChange={(event) => {
              const text = event.currentTarget.value;
              if (related) {
                const { title: _old, ...rest } = tab;
                set(text.trim() ? { ...rest, title: text } : rest);
              } else set({ ...tab, title: text || ' ' });
            }}
          />
          <ActionIcon
            variant="default"
            aria-label={`Move ${title} earlier`}
            disabled={index === 0}
            onClick={() => onChange(moveItem(tabs, index, -1))}
          >
            <IconArrowUp size={14} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label={`Move ${title} later`}
            disabled={index === tabs.length - 1}
            onClick={() => onChange(moveItem(tabs, index, 1))}
          >
            <IconArrowDown size={14} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            color="red"
            aria-label={`Remove tab ${title}`}
            disabled={tabs.length === 1}
            onClick={() => onChange(removeItem(tabs, index))}
          >
            <IconTrash size={14} />
          </ActionIcon>
        </Group>
        {related ? (
          <Text size="xs" c="dimmed">
            The records of {humanize(tab.related)}, with their own table.
          </Text>
        ) : (
          <SectionsEditor
            sections={tab.sections}
            owner={title}
            options={options}
            onChange={(sections) => set({ ...tab, sections })}
            onFields={(at, fields) => onChange(setSectionFields(tabs, index, at, fields))}
          />
        )}
      </Stack>
    </Paper>
  );
}
