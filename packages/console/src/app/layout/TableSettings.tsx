/**
 * Layout mode's table defaults on a collection's list: page size, density, the segment the list
 * opens on (the agent's segments and the edited team's Console segments), and the row colouring
 * rules — each a condition on one field (the filter builder's fields and operators) and a colour;
 * a rule written elsewhere with a larger condition is listed in words, to keep or remove.
 */
import {
  ActionIcon,
  Button,
  ColorInput,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  TABLE_DENSITIES,
  TABLE_PAGE_SIZES,
  type PlainConditionTree,
  type TableLayout,
  type TeamSegment,
} from '@canopy/platform-protocol';
import {
  humanize,
  isRelation,
  operatorLabel,
  operatorsFor,
  valueKind,
  type SchemaCollection,
} from '../../protocol';
import { platformJson, usePlatformPaths } from '../platform-calls';
import { setTableOptions } from './layout-edit';
import type { LayoutEditor } from './LayoutDrawer';
import { describeTree } from './row-colours';

type Rule = NonNullable<TableLayout['rowColours']>[number];
type Leaf = { field: string; operator: string; value?: unknown };

const isLeaf = (tree: PlainConditionTree): tree is Leaf => !('aggregator' in tree);

/**
 * A rule's value as typed, in the shape its operator takes (none, a list, a number) and, for a
 * number field, as a number.
 */
export function leafValue(operator: string, typed: string, type?: unknown): unknown {
  const kind = valueKind(operator);
  if (kind === 'none') return undefined;
  // A number once it reads back as typed (`12.` stays text while the decimals are typed).
  const number = (text: string) =>
    text.trim() !== '' && String(Number(text)) === text.trim() ? Number(text) : text;
  if (kind === 'list') {
    const items = typed
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    return type === 'Number' ? items.map(number) : items;
  }
  if (kind === 'number' || type === 'Number')
    return typed.trim() === '' ? undefined : number(typed);
  return typed;
}

const typedValue = (value: unknown) =>
  Array.isArray(value)
    ? value.join(', ')
    : value === undefined || value === null
      ? ''
      : String(value);

function useTeamSegmentNames(team: string, collection: string): string[] {
  const paths = usePlatformPaths();
  const segments = useQuery({
    queryKey: ['team-segments', 'layout', paths.environment, team, collection],
    queryFn: () =>
      platformJson<{ data: TeamSegment[] }>(
        `${paths.environment}/teams/${encodeURIComponent(team)}/segments?collection=${encodeURIComponent(collection)}`,
      ).then((answer) => answer.data.map((segment) => segment.name)),
    staleTime: 30_000,
  });
  return segments.data ?? [];
}

export function TableSettings({
  editor,
  collection,
}: {
  editor: LayoutEditor;
  collection: SchemaCollection;
}) {
  const name = collection.name;
  const table = editor.draft?.collections?.[name]?.table ?? {};
  const set = (options: Parameters<typeof setTableOptions>[2]) =>
    editor.change(setTableOptions(editor.draft, name, options));
  const teamSegments = useTeamSegmentNames(editor.team, name);
  const segments = [
    ...new Set([...(collection.segments ?? []).map((segment) => segment.name), ...teamSegments]),
  ];
  const first = table.firstSegment ?? undefined;
  const segmentOptions = [
    { value: '', label: 'All records' },
    ...segments.map((segment) => ({ value: segment, label: segment })),
    ...(first && !segments.includes(first)
      ? [{ value: first, label: `${first} (no longer a segment)` }]
      : []),
  ];
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="table-settings">
      <Stack gap="xs">
        <Group grow gap="xs" align="flex-start">
          <Select
            size="xs"
            label="Page size"
            data={[
              { value: '', label: 'Default' },
              ...TABLE_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) })),
            ]}
            value={table.pageSize ? String(table.pageSize) : ''}
            allowDeselect={false}
            onChange={(value) =>
              set({ pageSize: value ? (Number(value) as TableLayout['pageSize']) : undefined })
            }
          />
          <Select
            size="xs"
            label="Density"
            data={[
              { value: '', label: 'Default' },
              ...TABLE_DENSITIES.map((density) => ({ value: density, label: humanize(density) })),
            ]}
            value={table.density ?? ''}
            allowDeselect={false}
            onChange={(value) => set({ density: (value || undefined) as TableLayout['density'] })}
          />
        </Group>
        <Select
          size="xs"
          label="Opens on the segment"
          data={segmentOptions}
          value={first ?? ''}
          allowDeselect={false}
          onChange={(value) => set({ firstSegment: value || undefined })}
        />
        <RowColours
          collection={collection}
          rules={table.rowColours ?? []}
          onChange={(rowColours) => set({ rowColours })}
        />
      </Stack>
    </Paper>
  );
}

function RowColours({
  collection,
  rules,
  onChange,
}: {
  collection: SchemaCollection;
  rules: Rule[];
  onChange(rules: Rule[]): void;
}) {
  const fields = collection.fields.filter(
    (field) => !isRelation(field) && operatorsFor(field).length > 0,
  );
  const replace = (index: number, rule: Rule) =>
    onChange(rules.map((current, at) => (at === index ? rule : current)));
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Row colours
      </Text>
      <Text size="xs" c="dimmed">
        A row takes the colour of the first rule it matches.
      </Text>
      {rules.map((rule, index) => {
        const number = index + 1;
        const remove = (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove colour rule ${number}`}
            onClick={() => onChange(rules.filter((_, at) => at !== index))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        );
        const colour = (
          <ColorInput
            size="xs"
            aria-label={`Colour of rule ${number}`}
            format="hex"
            value={rule.colour}
            onChange={(next) => {
              if (/^#[0-9a-f]{6}$/i.test(next))
                replace(index, { ...rule, colour: next.toLowerCase() });
            }}
          />
        );
        if (!isLeaf(rule.filter)) {
          return (
            <Group key={index} gap="xs" wrap="nowrap" data-colour-rule={number}>
              <Text size="xs" flex={1}>
                {describeTree(rule.filter, operatorLabel)}
              </Text>
              {colour}
              {remove}
            </Group>
          );
        }
        const leaf = rule.filter;
        const field = fields.find((candidate) => candidate.field === leaf.field);
        const operators = field ? operatorsFor(field) : [leaf.operator];
        const setLeaf = (next: Leaf) => {
          const { value, ...rest } = next;
          replace(index, { ...rule, filter: value === undefined ? rest : next });
        };
        return (
          <Stack key={index} gap={4} data-colour-rule={number}>
            <Group gap="xs" wrap="nowrap" grow>
              <Select
                size="xs"
                aria-label={`Field of rule ${number}`}
                data={fields.map((candidate) => ({
                  value: candidate.field,
                  label: humanize(candidate.field),
                }))}
                value={leaf.field}
                allowDeselect={false}
                onChange={(next) => {
                  const picked = fields.find((candidate) => candidate.field === next);
                  if (!picked) return;
                  const allowed = operatorsFor(picked);
                  const operator = allowed.includes(leaf.operator) ? leaf.operator : allowed[0]!;
                  setLeaf({ field: picked.field, operator, value: leaf.value });
                }}
              />
              <Select
                size="xs"
                aria-label={`Operator of rule ${number}`}
                data={operators.map((operator) => ({
                  value: operator,
                  label: operatorLabel(operator),
                }))}
                value={leaf.operator}
                allowDeselect={false}
                onChange={(operator) =>
                  operator &&
                  setLeaf({
                    ...leaf,
                    operator,
                    value: leafValue(operator, typedValue(leaf.value), field?.type),
                  })
                }
              />
            </Group>
            <Group gap="xs" wrap="nowrap" align="flex-end">
              {valueKind(leaf.operator) !== 'none' && (
                <TextInput
                  size="xs"
                  flex={1}
                  aria-label={`Value of rule ${number}`}
                  placeholder={field?.enums?.length ? field.enums.join(', ') : 'Value'}
                  value={typedValue(leaf.value)}
                  onChange={(event) =>
                    setLeaf({
                      ...leaf,
                      value: leafValue(leaf.operator, event.currentTarget.value, field?.type),
                    })
                  }
                />
              )}
              {colour}
              {remove}
            </Group>
          </Stack>
        );
      })}
      <Button
        size="xs"
        variant="default"
        disabled={fields.length === 0 || rules.length >= 50}
        onClick={() => {
          const field = fields[0]!;
          const allowed = operatorsFor(field);
          const operator = allowed.includes('present') ? 'present' : allowed[0]!;
          onChange([...rules, { filter: { field: field.field, operator }, colour: '#fab005' }]);
        }}
      >
        Add a colour rule
      </Button>
    </Stack>
  );
}
