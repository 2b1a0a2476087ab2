/**
 * The History tab's filters (agent protocol §13.1): people who wrote entries of the record
 * (`meta.availableUsers`), fields, a date range and a search in the values.
 */
import { Group, MultiSelect, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { HistoryFilters as Filters, HistoryUser } from '../../../protocol';
import { DatePickerInput } from '../../components/lazy-dates';
import { personName } from '../../components/format';
import { fieldLabel } from './history-text';

export function HistoryFilters({
  value,
  onChange,
  users,
  fields,
}: {
  value: Filters;
  onChange: (filters: Filters) => void;
  users: HistoryUser[];
  /** The record's stored fields (what entries can name). */
  fields: string[];
}) {
  const [search, setSearch] = useState(value.search ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  useEffect(() => {
    if ((value.search ?? '') !== debounced) onChange({ ...value, search: debounced });
    // Only the debounced text triggers a new query.
  }, [debounced]);
  return (
    <Group gap="xs" align="flex-end" data-testid="history-filters">
      <MultiSelect
        label="People"
        size="xs"
        w={220}
        clearable
        placeholder={value.userIds?.length ? undefined : 'Anyone'}
        data={users.map((user) => ({
          value: String(user.id),
          label: personName(user) || user.email || `User #${user.id}`,
        }))}
        value={(value.userIds ?? []).map(String)}
        onChange={(ids) => onChange({ ...value, userIds: ids.map(Number) })}
      />
      <MultiSelect
        label="Fields"
        size="xs"
        w={260}
        clearable
        searchable
        placeholder={value.fields?.length ? undefined : 'Any field'}
        data={fields.map((field) => ({ value: field, label: fieldLabel(field) }))}
        value={value.fields ?? []}
        onChange={(selected) => onChange({ ...value, fields: selected })}
      />
      <DatePickerInput
        type="range"
        label="Dates"
        size="xs"
        w={220}
        clearable
        placeholder="Any time"
        value={[value.startDate ?? null, value.endDate ?? null]}
        onChange={(range) => {
          const [start, end] = range as [string | null, string | null];
          onChange({ ...value, startDate: start ?? undefined, endDate: end ?? undefined });
        }}
      />
      <TextInput
        label="Search"
        size="xs"
        w={180}
        placeholder="A value, a name…"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
    </Group>
  );
}
