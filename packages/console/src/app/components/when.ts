const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * A moment as every log, history, approval and token list of the console shows it (`26 Nov 2026,
 * 13:42:07` in English), in the browser's locale and time zone; `—` when there is none.
 */
export function formatWhen(value: string | Date | null | undefined): string {
  return value ? moment.format(typeof value === 'string' ? new Date(value) : value) : '—';
}
