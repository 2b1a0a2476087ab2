/**
 * The input of a date-time, a date or a time value, shared by the record form, the action form
 * and the filter builder: it shows the value as the rest of the Console writes it (the user's
 * locale and time zone), accepts a date typed in that format, opens its calendar on the value's
 * month, and hands back what the agent stores (an ISO date-time, `YYYY-MM-DD`, or `HH:mm:ss`),
 * `null` when cleared.
 */
// Drawn in pages and dialogs loaded on first use (the record form, the action dialog) and, through
// lazy-dates, in the filter builder: @mantine/dates and its styles come with it.
import '@mantine/dates/styles.css';
import { ActionIcon, Popover, TextInput } from '@mantine/core';
import { DatePicker, TimeInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import {
  datePattern,
  formatDateOnly,
  formatDateTime,
  fromWallClock,
  parseTypedDate,
  wallClock,
} from './format';

/** Props every input of a form passes on (label, error, required, disabled, test attributes…). */
type CommonProps = { label?: string; error?: string; disabled?: boolean } & Record<string, unknown>;

/** `MM/DD/YYYY, hh:mm A` → what a person reads as the expected format. */
function readablePattern(withTime: boolean): string {
  return datePattern(withTime)
    .replace(/\[([^\]]*)\]/g, '$1')
    .replace('A', 'AM/PM');
}

function DateTextInput({
  withTime,
  text,
  onChange,
  error,
  popoverProps,
  ...common
}: CommonProps & {
  withTime: boolean;
  text: string;
  onChange(value: string | null): void;
  popoverProps?: Record<string, unknown>;
}) {
  const write = (value: string) => (withTime ? formatDateTime(value) : formatDateOnly(value));
  const shown = text ? write(text) : '';
  const [draft, setDraft] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    setDraft(shown);
    setInvalid(false);
  }, [shown]);

  const commit = () => {
    if (!draft.trim()) {
      setInvalid(false);
      if (text) onChange(null);
      return;
    }
    const parsed = parseTypedDate(draft, withTime);
    setInvalid(parsed === null);
    if (parsed === null) return;
    setDraft(write(parsed));
    if (write(parsed) !== shown) onChange(parsed);
  };
  // The calendar works on the day the value has for the user (in their time zone).
  const day = text ? (withTime ? wallClock(text).format('YYYY-MM-DD') : text.slice(0, 10)) : null;
  const pick = (picked: string | null) => {
    setOpened(false);
    if (!picked) return;
    const time = text && withTime ? wallClock(text).format('HH:mm:ss') : '00:00:00';
    onChange(withTime ? fromWallClock(`${picked}T${time}`) : picked);
  };

  return (
    <TextInput
      {...common}
      value={draft}
      placeholder={readablePattern(withTime)}
      error={error ?? (invalid ? `Type a date as ${readablePattern(withTime)}.` : undefined)}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          commit();
        }
      }}
      rightSection={
        <Popover
          opened={opened}
          onChange={setOpened}
          onClose={() => setOpened(false)}
          trapFocus
          returnFocus
          position="bottom-end"
          {...popoverProps}
        >
          <Popover.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label="Open the calendar"
              disabled={common.disabled}
              onClick={() => setOpened((was) => !was)}
            >
              <IconCalendar size={16} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <DatePicker defaultDate={day ?? undefined} value={day} onChange={pick} />
          </Popover.Dropdown>
        </Popover>
      }
    />
  );
}

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
  /** Where the calendar opens (the filter builder keeps it in its own pop-over). */
  popoverProps?: Record<string, unknown>;
}) {
  switch (kind) {
    case 'date':
    case 'dateonly':
      return (
        <DateTextInput {...common} withTime={kind === 'date'} text={text} onChange={onChange} />
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
