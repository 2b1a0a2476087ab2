/** A searchable picker of records of a collection (relation inputs, associate). */
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { labelField, type AgentRecord, type SchemaCollection } from '../../protocol';
import { useSession } from '../session';

export function RecordPicker({
  collection,
  label,
  value,
  initialLabel,
  onChange,
  error,
  required,
  description,
  disabled,
  placeholder,
  ...rest
}: {
  collection: SchemaCollection;
  label: string;
  value: string | null;
  initialLabel?: string;
  onChange(record: AgentRecord | null): void;
  error?: string;
  required?: boolean;
  description?: string;
  disabled?: boolean;
  placeholder?: string;
  /** Other attributes for the input (`data-field`…). */
  [attribute: `data-${string}`]: string | undefined;
}) {
  const { client, workspace } = useSession();
  const [search, setSearch] = useState('');
  /** The option last chosen, whose label stays once the options are those of another search. */
  const [picked, setPicked] = useState<{ value: string; label: string }>();
  const [debounced] = useDebouncedValue(search, 250);
  const labelOf = labelField(collection);
  const pk = collection.fields.filter((f) => f.isPrimaryKey).map((f) => f.field);
  const options = useQuery({
    queryKey: ['picker', workspace.id, collection.name, debounced],
    queryFn: () =>
      client.list(collection.name, {
        fields: [...new Set([...pk, labelOf])],
        search: collection.isSearchable === false ? undefined : debounced,
        page: { number: 1, size: 20 },
      }),
  });
  const records = options.data ?? [];
  const data = records.map((record) => ({
    value: record.id,
    label: `${String(record.values[labelOf] ?? record.id)} · #${record.id}`,
  }));
  if (value && !data.some((item) => item.value === value)) {
    const known = picked?.value === value ? picked.label : undefined;
    data.unshift({
      value,
      label: known ?? (initialLabel ? `${initialLabel} · #${value}` : `#${value}`),
    });
  }
  // Once a record is chosen, the select shows its option's label as the search text: that is no
  // search (nobody types the "· #id" ending).
  const searchChange = (text: string) =>
    setSearch(data.some((item) => item.label === text) ? '' : text);
  return (
    <Select
      {...rest}
      label={label}
      description={description}
      disabled={disabled}
      placeholder={placeholder}
      searchable
      clearable={!required}
      required={required}
      data={data}
      value={value}
      error={error}
      onSearchChange={searchChange}
      filter={({ options: all }) => all}
      rightSection={options.isFetching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={options.isFetching ? 'Searching…' : 'No record matches'}
      onChange={(id, option) => {
        setPicked(id ? { value: id, label: option.label } : undefined);
        onChange(
          id
            ? (records.find((r) => r.id === id) ?? {
                id,
                type: collection.name,
                values: {},
                toOne: {},
                matches: [],
              })
            : null,
        );
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
