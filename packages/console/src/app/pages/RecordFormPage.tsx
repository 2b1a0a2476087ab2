/**
 * Create and edit forms generated from the schema: the input fitted to each type, required and
 * read-only flags, default values, enum pickers, relation pickers with search, files as data
 * URIs. The limits the schema carries (text length, ranges, enum values, validation rules) are
 * checked before the form is sent; the agent's errors are shown, in words, on the field they name.
 * The first error is scrolled into view and focused.
 */
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Image,
  JsonInput,
  NumberInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  AgentError,
  errorText,
  humanize,
  isRelation,
  isToOne,
  labelField,
  targetCollection,
  typeName,
  type ResourceIdentifier,
  type SchemaField,
  valueProblem,
  type ErrorText,
} from '../../protocol';
import { ErrorMessage } from '../components/ErrorMessage';
import { focusFirstError } from '../features/actions/focus-error';
import { RecordPicker } from '../components/RecordPicker';
import { PageLoader, UnknownCollection } from '../components/States';
import { TemporalInput } from '../components/TemporalInput';
import { itemType, numberInputFormat } from '../components/format';
import { collectionOf, rememberDenied, useDataBase, useRecord, useSchema } from '../data';
import { useSession } from '../session';
import { duplicateValues, initialValues } from './form-values';
import { RecordPresence } from '../features/live/RecordPresence';
import { useEditConflict } from '../features/live/use-edit-conflict';
import { FormSections, useFormLayout } from '../layout/FormSections';
import { FormLayoutButton } from '../layout/LayoutButton';
import { EditWidget } from '../layout/EditWidget';
import type { LayoutWidget } from '@canopy/platform-protocol';
import { collectionPath, recordPath } from '../data-paths';

type Values = Record<string, unknown>;

/** The agent's message names the field in quotes (`… for "total": …`): put it on that field. */
function fieldOfError(message: string, fields: SchemaField[]): string | undefined {
  return fields.find((f) => new RegExp(`["'\`.]${f.field}["'\`]`).test(message))?.field;
}

function readFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function FieldInput({
  field,
  value,
  onChange,
  error,
  disabled,
  relationLabel,
  widget,
}: {
  field: SchemaField;
  /** The edit widget of the team's layout (layout/EditWidget.tsx). */
  widget?: LayoutWidget;
  value: unknown;
  onChange(value: unknown): void;
  error?: string;
  disabled: boolean;
  relationLabel?: string;
}) {
  const schema = useSchema().data!;
  const label = humanize(field.field);
  const common = { label, error, disabled, required: field.isRequired && !disabled };
  if (widget) {
    // Until the widget's chunk arrives, the plain input: the field never leaves the form.
    const plain = <FieldInput {...{ field, value, onChange, error, disabled, relationLabel }} />;
    return (
      <EditWidget
        {...common}
        widget={widget}
        field={field}
        {...{ value, onChange }}
        fallback={plain}
      />
    );
  }
  if (isToOne(field)) {
    const target = collectionOf(schema, targetCollection(field));
    if (!target) return null;
    return (
      <RecordPicker
        collection={target}
        label={label}
        value={value ? String(value) : null}
        initialLabel={relationLabel}
        onChange={(record) => onChange(record?.id ?? null)}
        error={error}
        required={field.isRequired}
      />
    );
  }
  // A list of composite values (`[{fields}]`) is edited as JSON, not as tags of "[object Object]".
  const composite = Array.isArray(field.type) && typeof field.type[0] === 'object';
  const type = composite ? 'Json' : typeName(field.type);
  const text = value === null || value === undefined ? '' : String(value);
  switch (type) {
    case 'Number':
      return (
        <NumberInput
          {...common}
          value={value === null || value === undefined ? '' : Number(value)}
          onChange={(v) => onChange(v === '' ? null : Number(v))}
          {...numberInputFormat(field.currency ?? undefined)}
        />
      );
    case 'Boolean':
      return (
        <Switch
          label={label}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
          disabled={disabled}
          error={error}
          mt="lg"
        />
      );
    case 'Enum':
      return (
        <Select
          {...common}
          data={field.enums ?? []}
          value={text || null}
          onChange={(v) => onChange(v)}
          clearable={!field.isRequired}
          searchable
        />
      );
    case 'Date':
    case 'Dateonly':
    case 'Time':
      return (
        <TemporalInput
          {...common}
          kind={type === 'Date' ? 'date' : type === 'Dateonly' ? 'dateonly' : 'time'}
          text={text}
          onChange={onChange}
        />
      );
    case 'Json':
    case 'Object':
    case 'Array': {
      const items = itemType(field.type);
      // A list of plain values is edited as tags; anything else as JSON text.
      const list = Array.isArray(value) ? value : [];
      const plain =
        typeof value !== 'string' &&
        list.every((item) => item === null || typeof item !== 'object');
      if (type === 'Array' && items !== 'Json' && items !== 'Boolean' && plain) {
        return (
          <TagsInput
            {...common}
            value={list.map((item) => String(item))}
            onChange={(tags) =>
              onChange(items === 'Number' ? tags.map((tag) => Number(tag.replace(',', '.'))) : tags)
            }
          />
        );
      }
      return (
        <JsonInput
          {...common}
          autosize
          minRows={3}
          formatOnBlur
          validationError="Not valid JSON"
          value={
            typeof value === 'string'
              ? value
              : value === undefined || value === null
                ? ''
                : JSON.stringify(value, null, 2)
          }
          onChange={(text) => onChange(text)}
          description={type === 'Array' ? 'JSON list' : 'JSON'}
        />
      );
    }
    case 'Binary':
      return (
        <Stack gap={4}>
          <FileInput
            {...common}
            placeholder={text ? 'Replace the file' : 'Choose a file'}
            onChange={async (file) => onChange(file ? await readFile(file) : null)}
            clearable
          />
          {text.startsWith('data:image/') && (
            <Image src={text} alt={label} h={80} w="auto" fit="contain" />
          )}
        </Stack>
      );
    default:
      if (text.startsWith('data:')) {
        return (
          <Stack gap={4}>
            <FileInput
              {...common}
              placeholder="Replace the file"
              onChange={async (file) => onChange(file ? await readFile(file) : null)}
            />
            {text.startsWith('data:image/') && (
              <Image src={text} alt={label} h={80} w="auto" fit="contain" />
            )}
          </Stack>
        );
      }
      return /description|notes?|comment|message|body|text/i.test(field.field) ||
        text.length > 80 ? (
        <Textarea
          {...common}
          autosize
          minRows={2}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      ) : (
        <TextInput {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)} />
      );
  }
}

export function prepare(field: SchemaField, value: unknown): unknown {
  const type = typeName(field.type);
  if ((type === 'Json' || type === 'Object' || type === 'Array') && typeof value === 'string') {
    if (!value.trim()) return null;
    return JSON.parse(value);
  }
  if (value === '' && type !== 'String') return null;
  return value;
}

export function RecordFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const { collection: name, id } = useParams();
  const schema = useSchema();
  // `/new?from=<id>`: a create form prefilled with a copy of that record (duplicate).
  const from = useSearchParams()[0].get('from') ?? undefined;
  const source = mode === 'edit' ? id : from;
  const record = useRecord(name!, source);
  const { client } = useSession();
  const base = useDataBase();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const collection = collectionOf(schema.data, name);
  const formLayoutOf = useFormLayout(collection, mode);
  const [values, setValues] = useState<Values>({});
  const [initial, setInitial] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<ErrorText>();
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLDivElement>(null);
  /** Bumped when a submit finds errors: the first one is then scrolled to and focused. */
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused) focusFirstError(formRef.current);
  }, [refused]);
  const ready = collection && (!source || record.data);
  const conflict = useEditConflict({
    collection,
    record: mode === 'edit' ? record.data : undefined,
    base: initial,
    values,
    onMerged: (merged, base) => (setValues(merged), setInitial(base)),
    resubmit: () => formRef.current?.closest('form')?.requestSubmit(),
  });

  useEffect(() => {
    if (!collection || (source && !record.data)) return;
    const start =
      mode === 'create' && record.data
        ? duplicateValues(collection, record.data)
        : initialValues(collection, mode === 'edit' ? record.data : null);
    setValues(start);
    setInitial(start);
  }, [collection, mode, source, record.data]);

  if (schema.isPending || (source && record.isPending)) return <PageLoader label="Loading" />;
  if (!collection) return <UnknownCollection name={name} />;
  if (source && !record.data) {
    return (
      <Alert color="red" title="Record not found" role="alert">
        {record.error?.message ?? 'This record does not exist or is outside your scope.'}
      </Alert>
    );
  }
  const listUrl = collectionPath(base, collection.name);
  const fields = collection.fields.filter((f) => {
    if (isRelation(f) && !isToOne(f)) return false;
    if (mode === 'create' && f.isReadOnly && !isToOne(f)) return false;
    return true;
  });
  const formLayout = formLayoutOf(fields);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const nextErrors: Record<string, string> = {};
    const attributes: Values = {};
    const toOne: Record<string, ResourceIdentifier | null> = {};
    for (const field of fields) {
      const value = values[field.field];
      if (mode === 'edit' && JSON.stringify(value) === JSON.stringify(initial[field.field]))
        continue;
      if ((field.isReadOnly && !isToOne(field)) || formLayout.readOnly.has(field.field)) continue;
      if (field.isRequired && (value === undefined || value === null || value === '')) {
        nextErrors[field.field] = `${humanize(field.field)} is required.`;
        continue;
      }
      const problem = isToOne(field)
        ? undefined
        : valueProblem(field, humanize(field.field), value);
      if (problem) {
        nextErrors[field.field] = problem;
        continue;
      }
      if (isToOne(field)) {
        toOne[field.field] = value ? { type: targetCollection(field)!, id: String(value) } : null;
        continue;
      }
      if (value === undefined) continue;
      try {
        attributes[field.field] = prepare(field, value);
      } catch {
        nextErrors[field.field] = 'This is not valid JSON.';
      }
    }
    setErrors(nextErrors);
    setFormError(undefined);
    if (Object.keys(nextErrors).length) {
      setRefused((count) => count + 1);
      return;
    }
    setSaving(true);
    try {
      let savedId = id;
      if (mode === 'create') {
        const created = await client.create(collection.name, attributes, toOne);
        savedId = created.id;
      } else {
        if (Object.keys(attributes).length) {
          const updated = await client.update(collection.name, id!, attributes, conflict.etag);
          if (!updated)
            throw new AgentError(
              404,
              'The record is outside what your team may change, or it was deleted.',
            );
        }
        for (const [relation, target] of Object.entries(toOne)) {
          await client.setToOne(collection.name, id!, relation, target);
        }
      }
      await queryClient.invalidateQueries();
      notifications.show({
        color: 'teal',
        message: mode === 'create' ? 'Record created.' : 'Changes saved.',
      });
      navigate(recordPath(base, collection.name, savedId!));
    } catch (error) {
      if (conflict.handle(error)) return;
      const message = (error as Error).message;
      if (error instanceof AgentError && error.status === 403) {
        rememberDenied(collection.name, mode === 'create' ? 'addEnabled' : 'editEnabled');
      }
      const text = errorText(error, { collection: collection.name });
      const field =
        text.field && fields.some((f) => f.field === text.field)
          ? text.field
          : fieldOfError(message, fields);
      if (field) {
        setErrors({ [field]: text.message });
        setRefused((count) => count + 1);
      } else setFormError(text);
    } finally {
      setSaving(false);
    }
  };

  const singular = humanize(collection.name).replace(/s$/, '').toLowerCase();
  const title =
    mode === 'edit'
      ? `Edit ${singular} #${id}`
      : `New ${singular}${from ? ` (copy of #${from})` : ''}`;

  return (
    <Stack
      component="form"
      ref={formRef}
      onSubmit={submit}
      gap="md"
      maw={960}
      miw={0}
      {...{ noValidate: true }}
    >
      <Anchor
        component={Link}
        to={mode === 'edit' ? recordPath(base, collection.name, id!) : listUrl}
        size="sm"
      >
        ← {mode === 'edit' ? 'Back to the record' : humanize(collection.name)}
      </Anchor>
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        <FormLayoutButton collection={collection} mode={mode} />
      </Group>
      {mode === 'edit' && id !== undefined && (
        <RecordPresence collection={collection.name} recordId={id} />
      )}
      {formError && (
        <Alert color="red" title="The change was not saved" role="alert">
          <ErrorMessage error={formError} />
        </Alert>
      )}
      {!ready ? null : (
        <FormSections
          form={formLayout}
          fields={fields}
          input={(field, readOnly) => (
            <FieldInput
              key={field.field}
              field={field}
              value={values[field.field]}
              error={errors[field.field]}
              disabled={(!!field.isReadOnly && !isToOne(field)) || readOnly}
              widget={formLayout.widgets[field.field]}
              relationLabel={(() => {
                const related = record.data?.toOne[field.field];
                const target = collectionOf(schema.data, targetCollection(field));
                return related && target
                  ? String(related.values[labelField(target)] ?? '') || undefined
                  : undefined;
              })()}
              onChange={(value) => {
                setValues((current) => ({ ...current, [field.field]: value }));
                // A value over a limit is said at once; another error goes once corrected.
                const problem = isToOne(field)
                  ? undefined
                  : valueProblem(field, humanize(field.field), value);
                setErrors(({ [field.field]: previous, ...rest }) =>
                  problem && (previous || /takes at most/.test(problem))
                    ? { ...rest, [field.field]: problem }
                    : rest,
                );
              }}
            />
          )}
        />
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          component={Link}
          to={mode === 'edit' ? recordPath(base, collection.name, id!) : listUrl}
        >
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          {mode === 'create' ? 'Create' : 'Save changes'}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Times are in your time zone.
      </Text>
      {conflict.dialog}
    </Stack>
  );
}
