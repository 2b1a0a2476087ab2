/**
 * "Edit N records": pick one or more fields and their new values (the record form's inputs),
 * then a preview — how many records will change, counted as the agent will select them — and a
 * confirmation before anything is written.
 */
import { Alert, Button, Group, Modal, MultiSelect, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import {
  bulkEditableFields,
  humanize,
  valueProblem,
  type SchemaCollection,
} from '../../../protocol';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatFieldValue } from '../../components/format';
import { formatCount, recordCount } from '../../components/table/selection';
import { FieldInput, prepare } from '../../pages/RecordFormPage';

type Step = { kind: 'edit' } | { kind: 'preview'; count: number | null | undefined };

export function BulkEditDialog({
  opened,
  collection,
  selected,
  progress,
  onClose,
  preview,
  apply,
}: {
  opened: boolean;
  collection: SchemaCollection;
  /** How many records the table says are selected. */
  selected: number;
  /** The record-by-record fallback's progress, while it runs. */
  progress: { done: number; total: number } | undefined;
  onClose(): void;
  preview(): Promise<number | null>;
  apply(values: Record<string, unknown>): Promise<void>;
}) {
  const fields = bulkEditableFields(collection);
  const [chosen, setChosen] = useState<string[]>([]);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [step, setStep] = useState<Step>({ kind: 'edit' });
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setChosen([]);
    setValues({});
    setErrors({});
    setStep({ kind: 'edit' });
    setFailure(undefined);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  /** The patch, or `undefined` after marking the fields whose value is refused. */
  const patch = (): Record<string, unknown> | undefined => {
    const found: Record<string, string> = {};
    const out: Record<string, unknown> = {};
    for (const name of chosen) {
      const field = fields.find((candidate) => candidate.field === name)!;
      const value = values[name] ?? null;
      const problem =
        field.isRequired && (value === null || value === '')
          ? `${humanize(name)} is required.`
          : valueProblem(field, humanize(name), value);
      if (problem) found[name] = problem;
      else {
        try {
          out[name] = prepare(field, value);
        } catch {
          found[name] = 'This is not valid JSON.';
        }
      }
    }
    setErrors(found);
    return Object.keys(found).length ? undefined : out;
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const toPreview = () =>
    run(async () => {
      if (!patch()) return;
      setStep({ kind: 'preview', count: undefined });
      setStep({ kind: 'preview', count: await preview() });
    });
  const confirm = () =>
    run(async () => {
      const values = patch();
      if (!values) return;
      await apply(values);
      reset();
    });

  const count = step.kind === 'preview' ? step.count : undefined;
  const changes = chosen.map((name) => {
    const field = fields.find((candidate) => candidate.field === name)!;
    const value = values[name] ?? null;
    return `${humanize(name)} → ${value === null || value === '' ? 'empty' : formatFieldValue(field, value)}`;
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={`Edit ${recordCount(selected)}`}
      centered
      size="lg"
    >
      <Stack>
        {failure !== undefined && (
          <Alert color="red" title="Nothing was changed" role="alert">
            <ErrorMessage error={failure} context={{ collection: collection.name }} />
          </Alert>
        )}
        {step.kind === 'edit' ? (
          <>
            <MultiSelect
              label="Fields to change"
              placeholder={chosen.length ? undefined : 'Pick one or more fields'}
              data={fields.map((field) => ({ value: field.field, label: humanize(field.field) }))}
              value={chosen}
              onChange={setChosen}
              searchable
              data-autofocus
            />
            {chosen.map((name) => (
              <FieldInput
                key={name}
                field={fields.find((candidate) => candidate.field === name)!}
                value={values[name]}
                error={errors[name]}
                disabled={false}
                onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
              />
            ))}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button onClick={() => void toPreview()} disabled={!chosen.length} loading={busy}>
                Preview
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm" data-testid="bulk-edit-preview">
              {count === undefined
                ? 'Counting the records…'
                : count === null
                  ? 'The selected records will change.'
                  : `${recordCount(count)} will change.`}
            </Text>
            <Stack gap={2}>
              {changes.map((change) => (
                <Text key={change} size="sm" c="dimmed">
                  {change}
                </Text>
              ))}
            </Stack>
            {progress && (
              <Stack gap={4}>
                <Progress value={(100 * progress.done) / Math.max(1, progress.total)} animated />
                <Text size="xs" c="dimmed">
                  {formatCount(progress.done)} of {formatCount(progress.total)} records
                </Text>
              </Stack>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setStep({ kind: 'edit' })} disabled={busy}>
                Back
              </Button>
              <Button
                onClick={() => void confirm()}
                loading={busy}
                disabled={count === undefined || count === 0}
              >
                {count ? `Edit ${recordCount(count)}` : 'Edit'}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
