import { formatDateTime } from './format';

/**
 * A moment as every log, history, approval and token list of the console shows it: as a date-time
 * value reads everywhere in the console (the user's locale and time zone); `—` when there is none.
 */
export function formatWhen(value: string | Date | null | undefined): string {
  return value ? formatDateTime(value) : '—';
}
