/**
 * A collection list "as of" a time (agent protocol §13.1, Canopy's `POST /_audit-trail/{c}/states`):
 * the page's rows as they are now, each with what the history says of it then — whether it
 * existed, whether it changed since and which fields, and its values then.
 */

/** What the agent answers for one record at a time. */
export interface RecordStateAt {
  id: string;
  existed: boolean;
  changedSince: boolean;
  changedFields: string[];
  /** The audited values then; `null` when it did not exist, or when nothing was recorded. */
  values: Record<string, unknown> | null;
}

/** Ids one `states` call may name. */
export const STATES_PER_CALL = 100;

/** The address parameter of a table's "as of" time (related tabs have a prefix). */
export function asOfParam(prefix = ''): string {
  return `${prefix}asOf`;
}

/**
 * The moment in an address: an instant with its offset (`2026-03-03T09:30:00.000Z`), as the
 * Console writes it so that a shared link means the same moment for everyone; anything else
 * (a typo, a date without time) is no moment, and the list shows now.
 */
export function readAsOf(params: URLSearchParams, prefix = ''): string | undefined {
  const value = params.get(asOfParam(prefix));
  if (!value) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    return undefined;
  }
  return Number.isFinite(Date.parse(value)) ? value : undefined;
}

/** The address with the moment set, or removed (`undefined`: back to now). */
export function writeAsOf(
  params: URLSearchParams,
  at: string | undefined,
  prefix = '',
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (at) next.set(asOfParam(prefix), at);
  else next.delete(asOfParam(prefix));
  return next;
}

/** Ids in runs of at most {@link STATES_PER_CALL}: one call per run (one for a page of 100). */
export function stateBatches(ids: readonly string[]): string[][] {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += STATES_PER_CALL) {
    batches.push(ids.slice(start, start + STATES_PER_CALL));
  }
  return batches;
}

/** How a row reads then: as now, changed since, or not there yet. */
export type RowThen = 'same' | 'changed' | 'new';

export function rowThen(state: RecordStateAt | undefined): RowThen {
  if (!state) return 'same';
  if (!state.existed) return 'new';
  return state.changedSince ? 'changed' : 'same';
}

/**
 * Whether a cell shows an old value: the row changed since, the field is among those that
 * changed, and the history holds its value then.
 */
export function changedThen(state: RecordStateAt | undefined, field: string): boolean {
  return Boolean(
    state?.existed &&
    state.changedSince &&
    state.values &&
    field in state.values &&
    state.changedFields.includes(field),
  );
}
