/**
 * Revert planning: from history entries (one entry, or everything one request wrote) or from a
 * record's state at a time, the exact writes a revert makes — record, field, current value and
 * the value it goes back to. A field whose current value is no longer what the entry wrote was
 * changed later: a conflict, kept as it is unless the user chooses to revert it anyway. A
 * creation is reverted by deleting the record (a record changed since is a conflict too), a
 * deletion by creating the record again from its last values. Pure: the current values are
 * given, the writes are returned (the History tab sends them).
 */
import type { HistoryEntry } from './history';
import { sameRevertValue } from './same-value';
import { isToOne, targetCollection, type SchemaCollection } from './schema';

export { sameRevertValue };

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

/** A record the reverted entries created: the revert deletes it. */
export interface RevertRemovalTarget {
  collection: string;
  recordId: string;
  /** Field → the value the record should hold now for the deletion to be safe. */
  expected: Record<string, unknown>;
}

/** A record the reverted entries deleted: the revert creates it again from these values. */
export interface RevertRecreationTarget {
  collection: string;
  recordId: string;
  /** Its values just before the deletion (redacted ones as the mask). */
  values: Record<string, unknown>;
}

/** Everything a revert of history entries goes back to. */
export interface RevertTargets {
  targets: RevertTarget[];
  removals?: RevertRemovalTarget[];
  recreations?: RevertRecreationTarget[];
  skipped: RevertSkip[];
}

/**
 * The targets of history entries, oldest first: per record and field, the earliest "before"
 * and the latest "after" (one request may write a field twice). A record the entries created is
 * to be deleted (the updates they made after are folded into what it should hold now); a record
 * they deleted is to be created again, from its values before the entries' own updates. Action
 * runs and redacted values of updates are skipped with a reason.
 */
export function targetsOfEntries(entries: readonly HistoryEntry[]): Required<RevertTargets> {
  const byRecord = new Map<string, RevertTarget>();
  const created = new Map<string, RevertRemovalTarget>();
  const deleted = new Map<string, RevertRecreationTarget>();
  const skipped: RevertSkip[] = [];
  const ordered = [...entries].sort(
    (a, b) => a.timestamp.localeCompare(b.timestamp) || a.id - b.id,
  );
  for (const entry of ordered) {
    if (entry.recordId === null) continue;
    const where = { collection: entry.collection, recordId: entry.recordId };
    const key = recordKey(entry.collection, entry.recordId);
    if (entry.operation === 'create') {
      created.set(key, { ...where, expected: { ...(entry.newValues ?? {}) } });
      continue;
    }
    if (entry.operation === 'delete') {
      if (created.delete(key)) {
        byRecord.delete(key);
        skipped.push({
          ...where,
          reason: 'Created and deleted by the same change: nothing to undo.',
        });
        continue;
      }
      // Its values before the entries' own updates of it.
      const before = { ...(entry.previousValues ?? {}), ...(byRecord.get(key)?.restore ?? {}) };
      byRecord.delete(key);
      deleted.set(key, { ...where, values: before });
      continue;
    }
    if (entry.operation !== 'update') continue;
    const creation = created.get(key);
    if (creation) {
      Object.assign(creation.expected, entry.newValues ?? {});
      continue;
    }
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
  return {
    targets,
    removals: [...created.values()],
    recreations: [...deleted.values()],
    skipped: dedupe(skipped),
  };
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

/** A record the revert deletes (it was created by what is reverted). */
export interface RevertRemoval {
  collection: string;
  recordId: string;
  /** Its values now, shown in the preview. */
  current: Record<string, unknown>;
  /** The fields changed since the creation (and the reverted entries' own updates). */
  changed: string[];
  /** Changed since: deleted only when the user chooses to. */
  conflict: boolean;
}

/** A record the revert creates again (it was deleted by what is reverted). */
export interface RevertRecreation {
  collection: string;
  recordId: string;
  /** What the creation sends: the values before the deletion the agent may be sent. */
  values: Record<string, unknown>;
  /** Its to-one relations, from the foreign keys the history holds. */
  toOne: Record<string, { type: string; id: string }>;
  /** `true`: the same primary key; `false`: the key is not writable, the record gets a new one. */
  keepsId: boolean;
  /** Fields whose values are redacted in the history: they cannot be restored. */
  redacted: string[];
  /** Some values cannot be restored: created (without them) only when the user chooses to. */
  conflict: boolean;
}

export interface RevertPlan {
  changes: RevertChange[];
  removals: RevertRemoval[];
  recreations: RevertRecreation[];
  skipped: RevertSkip[];
  /** Fields already holding the value a revert would write. */
  unchanged: number;
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
  records: {
    removals?: readonly RevertRemovalTarget[];
    recreations?: readonly RevertRecreationTarget[];
    /** The schema's collections: which fields a re-creation may send. */
    collections?: readonly SchemaCollection[];
  } = {},
): RevertPlan {
  const plan: RevertPlan = {
    changes: [],
    removals: [],
    recreations: [],
    skipped: [...skipped],
    unchanged: 0,
  };
  /** The record's values now, or `undefined` once skipped with `reason`. */
  const valuesOf = (target: { collection: string; recordId: string }, reason: string) => {
    const values = current.get(recordKey(target.collection, target.recordId));
    if (values) return values;
    plan.skipped.push({ collection: target.collection, recordId: target.recordId, reason });
    return undefined;
  };
  for (const removal of records.removals ?? []) {
    const values = valuesOf(
      removal,
      'Already deleted (or outside what you may see): nothing to undo.',
    );
    if (!values) continue;
    const changed = Object.entries(removal.expected)
      .filter(([field, expected]) => field in values && !isRedacted(expected))
      .filter(([field, expected]) => !sameRevertValue(values[field], expected))
      .map(([field]) => field);
    plan.removals.push({
      collection: removal.collection,
      recordId: removal.recordId,
      current: values,
      changed,
      conflict: changed.length > 0,
    });
  }
  for (const recreation of records.recreations ?? []) {
    const where = { collection: recreation.collection, recordId: recreation.recordId };
    if (current.get(recordKey(recreation.collection, recreation.recordId))) {
      plan.skipped.push({
        ...where,
        reason: 'A record with this id exists again: it is not created twice.',
      });
      continue;
    }
    const collection = records.collections?.find((c) => c.name === recreation.collection);
    if (!collection) {
      plan.skipped.push({ ...where, reason: 'The collection is no longer in the schema.' });
      continue;
    }
    const values: Record<string, unknown> = {};
    const redacted: string[] = [];
    let keepsId = collection.fields.some((field) => field.isPrimaryKey);
    // A to-one relation is sent as a relationship: its foreign key column (`<name>_id` or
    // `<name>Id`, as the history stores it) is no attribute of the collection the agent accepts.
    const toOne: Record<string, { type: string; id: string }> = {};
    for (const field of collection.fields) {
      if (!isToOne(field)) continue;
      const target = targetCollection(field);
      const key = [`${field.field}_id`, `${field.field}Id`].find(
        (name) => name in recreation.values && !collection.fields.some((f) => f.field === name),
      );
      const id = key === undefined ? undefined : recreation.values[key];
      if (target && id !== undefined && id !== null && !isRedacted(id))
        toOne[field.field] = { type: target, id: String(id) };
    }
    for (const field of collection.fields) {
      if (field.relationship || !(field.field in recreation.values)) continue;
      if (field.isPrimaryKey && field.isReadOnly) {
        keepsId = false;
        continue;
      }
      const value = recreation.values[field.field];
      if (isRedacted(value)) redacted.push(field.field);
      else values[field.field] = value;
    }
    plan.recreations.push({
      ...where,
      values,
      toOne,
      keepsId,
      redacted,
      conflict: redacted.length > 0,
    });
  }
  for (const target of targets) {
    const values = valuesOf(target, 'The record no longer exists, or is outside what you may see.');
    if (!values) continue;
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

/** The key of the choice made for a whole record (a deletion or a re-creation). */
export function recordChoiceKey(collection: string, recordId: string): string {
  return changeKey({ collection, recordId, field: '' });
}

/**
 * One write the revert sends: an update (a record and the values it gets back), a deletion
 * (`kind: 'delete'`, no values) or a creation (`kind: 'create'`, the values to create with).
 */
export interface RevertWrite {
  collection: string;
  recordId: string;
  values: Record<string, unknown>;
  kind?: 'delete' | 'create';
  /** A creation's to-one relations. */
  toOne?: Record<string, { type: string; id: string }>;
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

/**
 * Every write of a plan: the deletions, the updates, then the re-creations. A deletion of a
 * record changed since, or a re-creation that cannot restore a redacted value, is made only when
 * the user chose to (`revert`), like an update's conflict.
 */
export function allRevertWrites(
  plan: RevertPlan,
  choices: ReadonlyMap<string, ConflictChoice> = new Map(),
): RevertWrite[] {
  const chosen = (item: { collection: string; recordId: string; conflict: boolean }) =>
    !item.conflict || choices.get(recordChoiceKey(item.collection, item.recordId)) === 'revert';
  return [
    ...plan.removals.filter(chosen).map((removal) => ({
      collection: removal.collection,
      recordId: removal.recordId,
      values: {},
      kind: 'delete' as const,
    })),
    ...revertWrites(plan, choices),
    ...plan.recreations.filter(chosen).map((recreation) => ({
      collection: recreation.collection,
      recordId: recreation.recordId,
      values: recreation.values,
      toOne: recreation.toOne,
      kind: 'create' as const,
    })),
  ];
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
