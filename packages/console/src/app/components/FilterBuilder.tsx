/**
 * The filter builder: nested AND/OR groups of conditions on the collection's fields and on the
 * fields of its to-one relations, with every operator valid for the field type and an input
 * fitted to the value the operator takes (relative dates are evaluated by the agent in the
 * user's time zone, sent with every request).
 */
import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { numberInputFormat } from './format';
import { TemporalInput } from './lazy-dates';
import {
  isBranch,
  operatorLabel,
  typeName,
  valueKind,
  type ConditionBranch,
  type ConditionLeaf,
  type ConditionTree,
  type SchemaField,
} from '../../protocol';

export { asGroup, filterableFields, type FilterableField } from './filter-fields';
import type { FilterableField } from './filter-fields';

function ValueInput({
  condition,
  field,
  label,
  onChange,
}: {
  condition: ConditionLeaf;
  field: SchemaField | undefined;
  label: string;
  onChange(value: unknown): void;
}) {
  const kind = valueKind(condition.operator);
  if (kind === 'none' || !field) return null;
  const type = typeName(field.type);
  const common = { 'aria-label': label, size: 'xs' as const, style: { flex: 1, minWidth: 160 } };
  const inPlace = { comboboxProps: { withinPortal: false } };
  const pickerInPlace = { popoverProps: { withinPortal: false } };
  if (kind === 'list') {
    const value = Array.isArray(condition.value) ? (condition.value as unknown[]).map(String) : [];
    return field.enums?.length ? (
      <MultiSelect
        {...common}
        {...inPlace}
        data={field.enums}
        value={value}
        onChange={onChange}
        placeholder="Values"
        searchable
      />
    ) : (
      <TagsInput
        {...common}
        {...inPlace}
        value={value}
        onChange={onChange}
        placeholder="Type a value, press Enter"
      />
    );
  }
  if (kind === 'number' || (kind === 'scalar' && type === 'Number')) {
    return (
      <NumberInput
        {...common}
        {...numberInputFormat(kind === 'number' ? undefined : (field.currency ?? undefined))}
        value={condition.value === undefined ? '' : (condition.value as number)}
        onChange={(value) => onChange(value === '' ? undefined : value)}
        placeholder={kind === 'number' ? 'X' : 'Value'}
      />
    );
  }
  if ((kind === 'date' || kind === 'scalar') && (type === 'Date' || type === 'Dateonly')) {
    return (
      <TemporalInput
        {...common}
        {...pickerInPlace}
        style={{ flex: 1, minWidth: type === 'Date' ? 220 : 160 }}
        kind={type === 'Date' ? 'date' : 'dateonly'}
        text={condition.value ? String(condition.value) : ''}
        onChange={(value) => onChange(value ?? undefined)}
      />
    );
  }
  if (kind === 'scalar' && type === 'Enum' && field.enums?.length) {
    return (
      <Select
        {...common}
        {...inPlace}
        data={field.enums}
        value={(condition.value as string) ?? null}
        onChange={(v) => onChange(v ?? undefined)}
        placeholder="Value"
      />
    );
  }
  if (kind === 'scalar' && type === 'Boolean') {
    return (
      <Select
        {...common}
        {...inPlace}
        data={[
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]}
        value={condition.value === undefined ? null : String(condition.value)}
        onChange={(v) => onChange(v === null ? undefined : v === 'true')}
        placeholder="Value"
      />
    );
  }
  return (
    <TextInput
      {...common}
      value={condition.value === undefined ? '' : String(condition.value)}
      onChange={(event) => onChange(event.currentTarget.value)}
      placeholder="Value"
    />
  );
}

function GroupEditor({
  group,
  fields,
  depth,
  path,
  onChange,
  onRemove,
}: {
  group: ConditionBranch;
  fields: FilterableField[];
  depth: number;
  path: string;
  onChange(group: ConditionBranch): void;
  onRemove?(): void;
}) {
  const update = (index: number, next: ConditionTree | undefined) => {
    const conditions = [...group.conditions];
    if (next === undefined) conditions.splice(index, 1);
    else conditions[index] = next;
    onChange({ ...group, conditions });
  };
  const byPath = new Map(fields.map((f) => [f.path, f]));
  const fieldData = [...new Set(fields.map((f) => f.group))].map((name) => ({
    group: name,
    items: fields.filter((f) => f.group === name).map((f) => ({ value: f.path, label: f.label })),
  }));
  return (
    // A nested group stands out from its parent in either theme (the theme's hover shade).
    <Paper
      withBorder
      p="xs"
      radius="md"
      bg={depth % 2 ? 'var(--mantine-color-default-hover)' : undefined}
      data-filter-depth={depth}
    >
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              Match
            </Text>
            <SegmentedControl
              size="xs"
              aria-label={`Combine the conditions of group ${path || 'top'}`}
              value={group.aggregator}
              onChange={(value) => onChange({ ...group, aggregator: value as 'and' | 'or' })}
              data={[
                { value: 'and', label: 'all' },
                { value: 'or', label: 'any' },
              ]}
            />
            <Text size="xs" c="dimmed">
              of these conditions
            </Text>
          </Group>
          {onRemove && (
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={onRemove}
              aria-label={`Remove group ${path}`}
            >
              <IconTrash size={14} />
            </ActionIcon>
          )}
        </Group>
        {group.conditions.map((condition, index) => {
          const number = path ? `${path}.${index + 1}` : String(index + 1);
          if (isBranch(condition)) {
            return (
              <GroupEditor
                key={index}
                group={condition}
                fields={fields}
                depth={depth + 1}
                path={number}
                onChange={(next) => update(index, next)}
                onRemove={() => update(index, undefined)}
              />
            );
          }
          const entry = byPath.get(condition.field);
          const field = entry?.field;
          const operators = entry?.operators ?? [];
          return (
            <Group key={index} gap="xs" wrap="wrap" align="flex-start">
              <Select
                aria-label={`Field of condition ${number}`}
                placeholder="Field"
                allowDeselect={false}
                comboboxProps={{ withinPortal: false }}
                size="xs"
                searchable
                data={fieldData}
                value={condition.field || null}
                onChange={(value) => {
                  const next = value ? byPath.get(value) : undefined;
                  update(index, { field: value ?? '', operator: next?.operators[0] ?? '' });
                }}
                style={{ flex: 1, minWidth: 170 }}
              />
              <Select
                aria-label={`Operator of condition ${number}`}
                placeholder="Operator"
                allowDeselect={false}
                comboboxProps={{ withinPortal: false }}
                size="xs"
                data={operators.map((operator) => ({
                  value: operator,
                  label: operatorLabel(operator),
                }))}
                value={condition.operator || null}
                onChange={(value) =>
                  update(index, {
                    field: condition.field,
                    operator: value ?? '',
                    ...(valueKind(value ?? '') === valueKind(condition.operator)
                      ? { value: condition.value }
                      : {}),
                  })
                }
                disabled={!field}
                style={{ width: 190 }}
              />
              <ValueInput
                condition={condition}
                field={field}
                label={`Value of condition ${number}`}
                onChange={(value) => update(index, { ...condition, value })}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                onClick={() => update(index, undefined)}
                aria-label={`Remove condition ${number}`}
                mt={2}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          );
        })}
        <Group gap="xs">
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconPlus size={12} />}
            onClick={() =>
              onChange({ ...group, conditions: [...group.conditions, { field: '', operator: '' }] })
            }
          >
            Add condition
          </Button>
          {depth < 2 && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="gray"
              leftSection={<IconPlus size={12} />}
              onClick={() =>
                onChange({
                  ...group,
                  conditions: [
                    ...group.conditions,
                    {
                      aggregator: group.aggregator === 'and' ? 'or' : 'and',
                      conditions: [{ field: '', operator: '' }],
                    },
                  ],
                })
              }
            >
              Add group
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

export function FilterBuilder({
  value,
  fields,
  onChange,
}: {
  value: ConditionBranch;
  fields: FilterableField[];
  onChange(group: ConditionBranch): void;
}) {
  return <GroupEditor group={value} fields={fields} depth={0} path="" onChange={onChange} />;
}
