/**
 * Revert planning: from history entries (one entry, or everything one request wrote) or from a
 * record's state at a time, the exact writes a revert makes — record, field, current value and
 * the value it goes back to. A field whose current value is no longer what the entry wrote was
 * changed later: a conflict, kept as it is unless the user chooses to revert it anyway. Pure:
 * the current values are given, the writes are returned (the History tab sends them).
 */
import type { HistoryEntry } from './history';

/** The mask the agent stores instead of a redacted value (never written back). */
export const REDACTED_VALUE = '[redacted]';

/** Whether a value is the mask (older Canopy agents wrote it in capitals). */
function isRedacted(value: unknown): boolean {
  return value === REDACTED_VALUE || value === '[REDACTED]';
}

/** What to go back to for one record: per field, the value to restore and the one expected now. */
export interface RevertTarget {
  collection: string;
  recordId: string;
  /** Field → value to write back. */
  restore: Record<string, unknown>;
  /**
   * Field → the value the field should hold now for the revert to be safe (what the entry
   * wrote); absent for a state at a time, where the user compares with the present directly.
   */
  expected?: Record<string, unknown>;
}

/** Something of the source the revert cannot undo with an update, and why. */
export interface RevertSkip {
  collection: string;
  recordId: string | null;
  reason: string;
}

/**
 * The targets of history entries, oldest first: per record and field, the earliest "before"
 * and the latest "after" (one request may write a field twice). Creations, deletions, action
 * runs and redacted values are skipped with a reason.
 */
export function targetsOfEntries(entries: readonly HistoryEntry[]): {
  targets: RevertTarget[];
  skipped: RevertSkip[];
} {
  const byRecord = new Map<string, RevertTarget>();
  const skipped: RevertSkip[] = [];
  const ordered = [...entries].sort(
    (a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id,
  );
  for (const entry of ordered) {
    const where = { collection: entry.collection, recordId: entry.recordId };
    if (entry.operation === 'create' || entry.operation === 'delete') {
      skipped.push({
        ...where,
        reason:
          entry.operation === 'create'
            ? 'A creation is not undone by a revert (delete the record instead).'
            : 'A deleted record is not re-created by a revert.',
      });
      continue;
    }
    if (entry.operation !== 'update' || entry.recordId === null) continue;
    const key = `${entry.collection}\u0000${entry.recordId}`;
    let target = byRecord.get(key);
    if (!target) {
      target = {
        collection: entry.collection,
        recordId: entry.recordId,
        restore: {},
        expected: {},
      };
      byRecord.set(key, target);
    }
    const before = entry.previousValues ?? {};
    const after = entry.newValues ?? {};
    for (const field of Object.keys({ ...before, ...after })) {
      if (isRedacted(before[field]) || isRedacted(after[field])) {
        skipped.push({ ...where, reason: `The values of “${field}” are redacted in the history.` });
        continue;
      }
      if (!(field in target.restore)) target.restore[field] = before[field] ?? null;
      target.expected![field] = after[field] ?? null;
    }
  }
  const targets = [...byRecord.values()].filter((target) => Object.keys(target.restore).length);
  return { targets, skipped: dedupe(skipped) };
}

/** The target of a record's state at a time: every field whose value differs from now. */
export function targetOfState(
  collection: string,
  recordId: string,
  state: Record<string, unknown>,
): RevertTarget {
  const restore = Object.fromEntries(
    Object.entries(state).filter(([, value]) => !isRedacted(value)),
  );
  return { collection, recordId, restore };
}

/** One field the revert writes (or would, for a conflict the user keeps). */
export interface RevertChange {
  collection: string;
  recordId: string;
  field: string;
  current: unknown;
  reverted: unknown;
  /** Changed after the entry: the current value is not the one the entry wrote. */
  conflict: boolean;
  /** For a conflict: what the entry wrote (the value now differs from it). */
  expected?: unknown;
}

export interface RevertPlan {
  changes: RevertChange[];
  skipped: RevertSkip[];
  /** Fields already holding the value a revert would write. */
  unchanged: number;
}

/** Whether two values are the same once both are JSON (dates and numbers as the agent sends). */
export function sameRevertValue(a: unknown, b: unknown): boolean {
  const left = a === undefined ? null : a;
  const right = b === undefined ? null : b;
  if (JSON.stringify(left) === JSON.stringify(right)) return true;
  // A number stored as text by one side (big integers, decimals) and as a number by the other.
  if (
    (typeof left === 'number' || typeof left === 'string') &&
    (typeof right === 'number' || typeof right === 'string') &&
    String(left).trim() !== '' &&
    Number(left) === Number(right)
  ) {
    return true;
  }
  // A date-time written with another precision or offset.
  const dateTime = /^\d{4}-\d{2}-\d{2}T/;
  if (
    typeof left === 'string' &&
    typeof right === 'string' &&
    (dateTime.test(left) || dateTime.test(right)) &&
    /^\d{4}-\d{2}-\d{2}/.test(left) &&
    /^\d{4}-\d{2}-\d{2}/.test(right)
  ) {
    const [l, r] = [Date.parse(left), Date.parse(right)];
    return Number.isFinite(l) && l === r;
  }
  return false;
}

/**
 * The plan of `targets` given each record's current values (`null`: the record is gone or out
 * of the user's scope, so it is skipped). Fields the revert would not change are counted, not
 * listed; fields not among the current values (hidden, removed) are skipped.
 */
export function planRevert(
  targets: readonly RevertTarget[],
  current: ReadonlyMap<string, Record<string, unknown> | null>,
  skipped: readonly RevertSkip[] = [],
): RevertPlan {
  const plan: RevertPlan = { changes: [], skipped: [...skipped], unchanged: 0 };
  for (const target of targets) {
    const values = current.get(recordKey(target.collection, target.recordId));
    if (!values) {
      plan.skipped.push({
        collection: target.collection,
        recordId: target.recordId,
        reason: 'The record no longer exists, or is outside what you may see.',
      });
      continue;
    }
    for (const [field, reverted] of Object.entries(target.restore)) {
      if (!(field in values)) {
        plan.skipped.push({
          collection: target.collection,
          recordId: target.recordId,
          reason: `“${field}” is not a field you can see on this record now.`,
        });
        continue;
      }
      const now = values[field];
      if (sameRevertValue(now, reverted)) {
        plan.unchanged += 1;
        continue;
      }
      const expected = target.expected?.[field];
      const conflict = target.expected !== undefined && !sameRevertValue(now, expected);
      plan.changes.push({
        collection: target.collection,
        recordId: target.recordId,
        field,
        current: now,
        reverted,
        conflict,
        ...(conflict ? { expected } : {}),
      });
    }
  }
  plan.skipped = dedupe(plan.skipped);
  return plan;
}

/** What the user chose for a conflict; a conflict without a choice is kept. */
export type ConflictChoice = 'keep' | 'revert';

/** The key of one change in the choices. */
export function changeKey(change: Pick<RevertChange, 'collection' | 'recordId' | 'field'>) {
  return `${change.collection}\u0000${change.recordId}\u0000${change.field}`;
}

export function recordKey(collection: string, recordId: string): string {
  return `${collection}\u0000${recordId}`;
}

/** One update the revert sends: a record and the values it gets back. */
export interface RevertWrite {
  collection: string;
  recordId: string;
  values: Record<string, unknown>;
}

/**
 * The updates of a plan, one per record: every change that is not a conflict, and the
 * conflicts the user chose to revert anyway. Never a conflict without that choice.
 */
export function revertWrites(
  plan: RevertPlan,
  choices: ReadonlyMap<string, ConflictChoice> = new Map(),
): RevertWrite[] {
  const writes = new Map<string, RevertWrite>();
  for (const change of plan.changes) {
    if (change.conflict && choices.get(changeKey(change)) !== 'revert') continue;
    const key = recordKey(change.collection, change.recordId);
    let write = writes.get(key);
    if (!write) {
      write = { collection: change.collection, recordId: change.recordId, values: {} };
      writes.set(key, write);
    }
    write.values[change.field] = change.reverted;
  }
  return [...writes.values()];
}

function dedupe(skips: RevertSkip[]): RevertSkip[] {
  const seen = new Set<string>();
  return skips.filter((skip) => {
    const key = `${skip.collection}\u0000${skip.recordId}\u0000${skip.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
