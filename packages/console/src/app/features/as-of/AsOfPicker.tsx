/**
 * The "As of" date-time picker (the one the record page's time travel uses), opened at once when
 * asked from the toolbar's button. The moment picked is given when the picker closes, so that the
 * list changes once.
 */
import { useRef, useState } from 'react';
import { fromWallClock, wallClock } from '../../components/format';
import { DateTimePicker } from '../../components/lazy-dates';

const WALL_CLOCK = 'YYYY-MM-DD HH:mm:ss';

export function AsOfPicker({
  at,
  open,
  onPick,
  onDone,
}: {
  /** The moment shown (an instant), if any. */
  at: string | undefined;
  /** Opens the picker once it is drawn (the user just asked for it). */
  open: boolean;
  /** A moment picked (an instant), or `undefined` when cleared: back to now. */
  onPick(at: string | undefined): void;
  /** The picker closed, or was cleared. */
  onDone(): void;
}) {
  // What the open picker holds; read from the ref when it closes (it may report closing twice:
  // by its button, then by itself).
  const [draft, setDraft] = useState<string | null>(null);
  const drafted = useRef<string | null>(null);
  const opened = useRef(!open);
  const hold = (value: string | null) => {
    drafted.current = value;
    setDraft(value);
  };
  return (
    <DateTimePicker
      ref={(node: HTMLButtonElement | null) => {
        if (node && !opened.current) {
          opened.current = true;
          node.click();
        }
      }}
      aria-label="As of"
      w={200}
      clearable
      withSeconds
      placeholder="Pick a past time"
      valueFormat={WALL_CLOCK}
      value={draft ?? (at ? wallClock(at).format(WALL_CLOCK) : null)}
      maxDate={new Date()}
      timePickerProps={{
        hoursInputLabel: 'Hours',
        minutesInputLabel: 'Minutes',
        secondsInputLabel: 'Seconds',
      }}
      submitButtonProps={{ 'aria-label': 'Show the list at this time' }}
      onChange={(value) => {
        if (value) hold(String(value));
        else {
          hold(null);
          onPick(undefined);
          onDone();
        }
      }}
      onDropdownClose={() => {
        const picked = drafted.current;
        if (picked) onPick(fromWallClock(picked));
        hold(null);
        onDone();
      }}
    />
  );
}
