/**
 * The input of a date-time, a date or a time value, shared by the record form and the action
 * form: it shows the stored text and hands back what the agent stores (an ISO date-time,
 * `YYYY-MM-DD`, or `HH:mm:ss`), `null` when cleared.
 */
// Drawn only in pages and dialogs loaded on first use (the record form, the action dialog): the
// date inputs come with them, drawn at once with the rest of the form.
import '@mantine/dates/styles.css';
import { DatePickerInput, DateTimePicker, TimeInput } from '@mantine/dates';
import dayjs from 'dayjs';

/** Props every input of a form passes on (label, error, required, disabled, test attributes…). */
type CommonProps = { label: string; error?: string } & Record<string, unknown>;

export function TemporalInput({
  kind,
  text,
  onChange,
  ...common
}: CommonProps & {
  kind: 'date' | 'dateonly' | 'time';
  /** The stored value as text; empty when there is none. */
  text: string;
  onChange(value: string | null): void;
}) {
  switch (kind) {
    case 'date':
      return (
        <DateTimePicker
          {...common}
          value={text ? dayjs(text).format('YYYY-MM-DD HH:mm:ss') : null}
          onChange={(next) => onChange(next ? dayjs(next).toISOString() : null)}
          clearable
          valueFormat="DD MMM YYYY HH:mm"
        />
      );
    case 'dateonly':
      return (
        <DatePickerInput
          {...common}
          value={text ? text.slice(0, 10) : null}
          onChange={(next) => onChange(next ? dayjs(next).format('YYYY-MM-DD') : null)}
          clearable
          valueFormat="DD MMM YYYY"
        />
      );
    case 'time':
      return (
        <TimeInput
          {...common}
          value={text.slice(0, 5)}
          onChange={(event) =>
            onChange(event.currentTarget.value ? `${event.currentTarget.value}:00` : null)
          }
        />
      );
  }
}
