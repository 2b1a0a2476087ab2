/** The input of one action form field: one per protocol type, widgets where the agent names one. */
import {
  Checkbox,
  FileInput,
  Group,
  JsonInput,
  MultiSelect,
  NumberInput,
  Radio,
  Select,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  dataUriInfo,
  fieldCurrency,
  fieldKind,
  isDynamicSearch,
  referencedCollection,
  widgetOptions,
  type ActionField,
} from '../../../protocol';
import { useState } from 'react';
import { RecordPicker } from '../../components/RecordPicker';
import { TemporalInput } from '../../components/TemporalInput';
import { numberInputFormat } from '../../components/format';
import { collectionOf, useSchema } from '../../data';

/** A browser file as the data URI the agent decodes, with its name (`;name=` parameter). */
export function readFileAsDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const uri = String(reader.result);
      const comma = uri.indexOf(',');
      const header = uri.slice(0, comma).replace(/;base64$/, '');
      resolve(`${header};name=${encodeURIComponent(file.name)};base64,${uri.slice(comma + 1)}`);
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export interface ActionFieldInputProps {
  field: ActionField;
  error?: string;
  onChange(value: unknown): void;
  /** Dynamic dropdowns: the user typed `text` in the search box. */
  onSearch?(text: string): void;
  searching?: boolean;
}

export function ActionFieldInput({
  field,
  error,
  onChange,
  onSearch,
  searching,
}: ActionFieldInputProps) {
  const schema = useSchema().data;
  const label = field.label ?? field.field;
  const parameters = (field.widgetEdit?.parameters ?? {}) as Record<string, unknown>;
  const placeholder =
    typeof parameters.placeholder === 'string' ? parameters.placeholder : undefined;
  const common = {
    label,
    description: field.description || undefined,
    required: field.isRequired,
    disabled: field.isReadOnly,
    error,
    placeholder,
    'data-field': field.field,
  };
  // Text inputs show a read-only value at full contrast (often a value the agent computed, to be
  // read): read-only rather than disabled.
  const textual = field.isReadOnly
    ? { ...common, disabled: false, readOnly: true, variant: 'filled' }
    : common;
  const value = field.value;
  const text = value === null || value === undefined ? '' : String(value);
  const widget = field.widgetEdit?.name;
  const kind = fieldKind(field);

  // Widgets that choose among options, whatever the type.
  if (widget === 'dropdown' && kind !== 'enumList') {
    const options = widgetOptions(field);
    const dynamic = isDynamicSearch(field);
    const data =
      options.length > 0
        ? options
        : (field.enums ?? []).map((option) => ({ value: option, label: option }));
    if (text && !data.some((option) => option.value === text))
      data.unshift({ value: text, label: text });
    return (
      <Select
        {...common}
        data={data}
        value={text || null}
        searchable={dynamic || parameters.isSearchable === true}
        clearable={!field.isRequired}
        onSearchChange={dynamic ? (search) => onSearch?.(search) : undefined}
        filter={dynamic ? ({ options: all }) => all : undefined}
        nothingFoundMessage={searching ? 'Searching…' : 'No option matches'}
        onChange={(next) =>
          onChange(next === null ? null : kind === 'number' ? Number(next) : next)
        }
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  if (widget === 'radio button') {
    return (
      <Radio.Group
        {...common}
        value={text}
        onChange={(next) => onChange(kind === 'number' ? Number(next) : next)}
      >
        <Group mt={4}>
          {widgetOptions(field).map((option) => (
            <Radio
              key={option.value}
              value={option.value}
              label={option.label}
              disabled={field.isReadOnly}
            />
          ))}
        </Group>
      </Radio.Group>
    );
  }
  if (widget === 'checkboxes') {
    return (
      <Checkbox.Group
        {...common}
        value={Array.isArray(value) ? value.map(String) : []}
        onChange={(next) => onChange(kind === 'numberList' ? next.map(Number) : next)}
      >
        <Group mt={4}>
          {widgetOptions(field).map((option) => (
            <Checkbox
              key={option.value}
              value={option.value}
              label={option.label}
              disabled={field.isReadOnly}
            />
          ))}
        </Group>
      </Checkbox.Group>
    );
  }

  switch (kind) {
    case 'number': {
      // Separators and currency sign as the Console writes numbers and amounts everywhere; a
      // price editor in cents shows units and gives the agent cents.
      const money = fieldCurrency(field);
      const scale = money?.cents ? 100 : 1;
      const number = typeof value === 'number' ? value : text === '' ? null : Number(text);
      return (
        <NumberInput
          {...textual}
          {...numberInputFormat(money?.currency)}
          value={number === null ? '' : number / scale}
          min={typeof parameters.min === 'number' ? parameters.min / scale : undefined}
          max={typeof parameters.max === 'number' ? parameters.max / scale : undefined}
          step={typeof parameters.step === 'number' ? parameters.step / scale : undefined}
          // An out-of-range value stays as typed, and the form says what the range is.
          clampBehavior="none"
          onChange={(next) =>
            onChange(
              next === '' ? null : money?.cents ? Math.round(Number(next) * 100) : Number(next),
            )
          }
        />
      );
    }
    case 'boolean':
      return widget === 'boolean editor' ? (
        <Checkbox
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      ) : (
        <Switch
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'date':
    case 'dateonly':
    case 'time':
      return <TemporalInput {...common} kind={kind} text={text} onChange={onChange} />;
    case 'enum':
      return (
        <Select
          {...common}
          data={field.enums ?? []}
          value={text || null}
          clearable={!field.isRequired}
          onChange={(next) => onChange(next)}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'enumList':
      return (
        <MultiSelect
          {...common}
          data={field.enums ?? widgetOptions(field)}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(next) => onChange(next)}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'stringList':
    case 'numberList':
      return (
        <TagsInput
          {...common}
          description={
            [
              field.description,
              kind === 'numberList' ? 'Numbers; press Enter after each.' : undefined,
            ]
              .filter(Boolean)
              .join(' ') || undefined
          }
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(next) =>
            onChange(
              kind === 'numberList'
                ? next.map(Number).filter((number) => !Number.isNaN(number))
                : next,
            )
          }
        />
      );
    case 'json':
      return <JsonFieldInput common={textual} value={value} onChange={onChange} />;
    case 'file': {
      const info = dataUriInfo(value);
      return (
        <FileInput
          {...common}
          placeholder={info ? info.name : (placeholder ?? 'Choose a file')}
          clearable
          onChange={async (file) => onChange(file ? await readFileAsDataUri(file) : null)}
        />
      );
    }
    case 'fileList': {
      const names = (Array.isArray(value) ? value : []).map((item) => dataUriInfo(item)?.name);
      return (
        <Stack gap={2}>
          <FileInput
            {...common}
            multiple
            placeholder={names.length ? names.join(', ') : (placeholder ?? 'Choose files')}
            clearable
            onChange={async (files) =>
              onChange(await Promise.all((files ?? []).map((file) => readFileAsDataUri(file))))
            }
          />
        </Stack>
      );
    }
    case 'collection': {
      const target = collectionOf(schema, referencedCollection(field));
      if (!target) {
        return (
          <TextInput
            {...common}
            value={text}
            onChange={(event) => onChange(event.currentTarget.value || null)}
          />
        );
      }
      return (
        <RecordPicker
          collection={target}
          label={label}
          value={text || null}
          required={field.isRequired}
          error={error}
          description={common.description}
          disabled={common.disabled}
          placeholder={placeholder}
          data-field={field.field}
          onChange={(record) => onChange(record ? record.id : null)}
        />
      );
    }
    default:
      if (widget === 'text area editor' || widget === 'rich text') {
        return (
          <Textarea
            {...textual}
            value={text}
            autosize
            minRows={typeof parameters.rows === 'number' ? parameters.rows : 3}
            onChange={(event) => onChange(event.currentTarget.value)}
          />
        );
      }
      return (
        <TextInput
          {...textual}
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}

/**
 * A Json field: the text typed is kept while it is not valid JSON yet; a value that comes from the
 * agent (a change-hook answer, a computed value) replaces the text when it differs from what the
 * text says.
 */
function JsonFieldInput({
  common,
  value,
  onChange,
}: {
  common: Record<string, unknown>;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const shown = value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
  const [text, setText] = useState(shown);
  const [known, setKnown] = useState(JSON.stringify(value ?? null));
  const incoming = JSON.stringify(value ?? null);
  if (incoming !== known) {
    // Derived state, updated during render (React's documented pattern for props that change).
    setKnown(incoming);
    setText(shown);
  }
  return (
    <JsonInput
      {...common}
      value={text}
      formatOnBlur
      autosize
      minRows={3}
      validationError="Not valid JSON"
      onChange={(next) => {
        setText(next);
        let parsed: unknown;
        try {
          parsed = next.trim() === '' ? null : JSON.parse(next);
        } catch {
          return; // Wait for valid JSON; the input shows the error.
        }
        setKnown(JSON.stringify(parsed));
        onChange(parsed);
      }}
    />
  );
}
