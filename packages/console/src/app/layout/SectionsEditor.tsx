/**
 * Titled sections of fields in layout mode (a record page's tab, a form): each section's title
 * and its fields in order, sections added and removed. `owner` names what the sections belong to
 * in the inputs' labels ("Fields of Money of Order").
 */
import { ActionIcon, Button, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import type { LayoutSection } from '@canopy/platform-protocol';
import { IconTrash } from '@tabler/icons-react';
import { removeItem, replaceItem } from './record-layout-edit';

export function SectionsEditor({
  sections,
  owner,
  options,
  onChange,
  onFields,
}: {
  sections: LayoutSection[];
  owner: string;
  options: { value: string; label: string }[];
  onChange(sections: LayoutSection[]): void;
  /** The fields of section `index` picked (a field leaves the section it was in). */
  onFields(index: number, fields: string[]): void;
}) {
  return (
    <>
      {sections.map((section, at) => {
        const name = section.title?.trim() || `section ${at + 1}`;
        return (
          <Stack key={at} gap={4} pl="xs">
            <Group gap={4} wrap="nowrap" align="flex-end">
              <TextInput
                size="xs"
                flex={1}
                aria-label={`Title of ${name} of ${owner}`}
                placeholder="Section title (optional)"
                value={section.title ?? ''}
                onChange={(event) => {
                  const text = event.currentTarget.value;
                  const { title: _old, ...rest } = section;
                  onChange(
                    replaceItem(sections, at, text.trim() ? { ...rest, title: text } : rest),
                  );
                }}
              />
              <ActionIcon
                variant="default"
                aria-label={`Remove ${name} of ${owner}`}
                onClick={() => onChange(removeItem(sections, at))}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
            <MultiSelect
              size="xs"
              aria-label={`Fields of ${name} of ${owner}`}
              placeholder="Fields, in order"
              data={options}
              value={section.fields}
              onChange={(fields) => onFields(at, fields)}
              searchable
            />
          </Stack>
        );
      })}
      <Button
        variant="subtle"
        size="compact-xs"
        onClick={() => onChange([...sections, { fields: [] }])}
      >
        Add a section
      </Button>
    </>
  );
}
