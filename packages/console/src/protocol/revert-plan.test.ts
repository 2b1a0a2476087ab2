import { describe, expect, it } from 'vitest';

import type { HistoryEntry } from './history';
import type { SchemaCollection } from './schema';
import {
  allRevertWrites,
  changeKey,
  type ConflictChoice,
  planRevert,
  recordChoiceKey,
  recordKey,
  revertWrites,
  sameRevertValue,
  targetOfState,
  targetsOfEntries,
} from './revert-plan';

let nextId = 1;
function entry(partial: Partial<HistoryEntry>): HistoryEntry {
  const id = nextId++;
  return {
    id,
    timestamp: '2026-01-01T10:00:00.000Z',
    operation: 'update',
    collection: 'orders',
    recordId: '1',
    userId: 1,
    userFirstName: 'Ada',
    userLastName: 'L',
    userEmail: 'ada@example.com',
    actionName: null,
    correlationKey: 'c1',
    previousValues: null,
    newValues: null,
    status: 'done',
    ...partial,
  };
}

describe('revert planning', () => {
  it('goes back to the values before a request that updated 500 records', () => {
    const entries = Array.from({ length: 500 }, (_, index) =>
      entry({
        recordId: String(index + 1),
        previousValues: { status: 'late' },
        newValues: { status: 'paid' },
      }),
    );
    const { targets, skipped } = targetsOfEntries(entries);
    const current = new Map(
      targets.map((target) => [recordKey('orders', target.recordId), { status: 'paid', total: 3 }]),
    );
    const plan = planRevert(targets, current, skipped);
    expect(plan.changes).toHaveLength(500);
    expect(plan.changes.every((change) => !change.conflict)).toBe(true);
    const writes = revertWrites(plan);
    expect(writes).toHaveLength(500);
    expect(writes[41]).toEqual({
      collection: 'orders',
      recordId: '42',
      values: { status: 'late' },
    });
  });

  it('reports a field changed later as a conflict and never writes it without a choice', () => {
    const { targets } = targetsOfEntries([
      entry({
        previousValues: { status: 'late', total: 10 },
        newValues: { status: 'paid', total: 12 },
      }),
    ]);
    // Someone set the status to "shipped" afterwards; the total is still what the entry wrote.
    const current = new Map([[recordKey('orders', '1'), { status: 'shipped', total: 12 }]]);
    const plan = planRevert(targets, current);
    expect(plan.changes).toEqual([
      expect.objectContaining({
        field: 'status',
        current: 'shipped',
        reverted: 'late',
        conflict: true,
        expected: 'paid',
      }),
      expect.objectContaining({ field: 'total', current: 12, reverted: 10, conflict: false }),
    ]);
    expect(revertWrites(plan)).toEqual([
      { collection: 'orders', recordId: '1', values: { total: 10 } },
    ]);
    const keep = new Map<string, ConflictChoice>([[changeKey(plan.changes[0]!), 'keep']]);
    expect(revertWrites(plan, keep)[0]!.values).toEqual({ total: 10 });
    const anyway = new Map<string, ConflictChoice>([[changeKey(plan.changes[0]!), 'revert']]);
    expect(revertWrites(plan, anyway)[0]!.values).toEqual({ status: 'late', total: 10 });
  });

  it('takes the first "before" and the last "after" of a field written twice', () => {
    const { targets } = targetsOfEntries([
      entry({ previousValues: { status: 'b' }, newValues: { status: 'c' } }),
      entry({
        previousValues: { status: 'a' },
        newValues: { status: 'b' },
        timestamp: '2025-01-01T00:00:00.000Z',
      }),
    ]);
    expect(targets).toEqual([
      {
        collection: 'orders',
        recordId: '1',
        restore: { status: 'a' },
        expected: { status: 'c' },
      },
    ]);
  });

  it('skips action runs, redacted values and records that are gone', () => {
    const { targets, skipped } = targetsOfEntries([
      entry({ operation: 'action', actionName: 'Ship' }),
      // The reference agent's mask, and the capitals older Canopy agents wrote.
      entry({
        recordId: '2',
        previousValues: { pin: '[redacted]' },
        newValues: { pin: '[redacted]' },
      }),
      entry({
        recordId: '4',
        previousValues: { pin: '[REDACTED]' },
        newValues: { pin: '[REDACTED]' },
      }),
      entry({ recordId: '3', previousValues: { status: 'a' }, newValues: { status: 'b' } }),
    ]);
    expect(skipped.map((skip) => skip.recordId)).toEqual(['2', '4']);
    const plan = planRevert(targets, new Map([[recordKey('orders', '3'), null]]), skipped);
    expect(plan.changes).toEqual([]);
    expect(plan.skipped.map((skip) => skip.recordId)).toEqual(['2', '4', '3']);
  });

  it('lists only the fields a state at a time changes, without conflicts', () => {
    const target = targetOfState('orders', '1', { status: 'late', total: 10, pin: '[redacted]' });
    const plan = planRevert(
      [target],
      new Map([[recordKey('orders', '1'), { status: 'paid', total: 10, pin: '1234' }]]),
    );
    expect(plan.unchanged).toBe(1);
    expect(plan.changes).toEqual([
      expect.objectContaining({
        field: 'status',
        current: 'paid',
        reverted: 'late',
        conflict: false,
      }),
    ]);
  });

  it('compares numbers sent as text and date-times of another precision as equal', () => {
    expect(sameRevertValue('12.50', 12.5)).toBe(true);
    expect(sameRevertValue('2026-01-01T10:00:00Z', '2026-01-01T10:00:00.000Z')).toBe(true);
    expect(sameRevertValue(undefined, null)).toBe(true);
    expect(sameRevertValue('', 0)).toBe(false);
    expect(sameRevertValue('a', 'b')).toBe(false);
  });
});

const orders: SchemaCollection = {
  name: 'orders',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true, isReadOnly: true },
    { field: 'status', type: 'String' },
    { field: 'pin', type: 'String' },
    { field: 'customer', type: 'Number', relationship: 'BelongsTo', reference: 'customers.id' },
  ],
};
const codes: SchemaCollection = {
  name: 'codes',
  fields: [
    { field: 'code', type: 'String', isPrimaryKey: true },
    { field: 'label', type: 'String' },
  ],
};

/** A deletion of order `recordId`, `seconds` after the other entries. */
function deletedLater(recordId: string, previousValues: Record<string, unknown>, seconds: number) {
  const timestamp = new Date(Date.parse('2026-01-01T10:00:00.000Z') + seconds * 1000);
  return entry({
    operation: 'delete',
    recordId,
    previousValues,
    timestamp: timestamp.toISOString(),
  });
}

describe('reverting creations and deletions', () => {
  it('deletes every record an import created, in one plan, and nothing else', () => {
    const created = Array.from({ length: 30 }, (_, index) =>
      entry({
        operation: 'create',
        recordId: String(index + 1),
        correlationKey: 'import-1',
        newValues: { id: index + 1, status: 'new' },
      }),
    );
    const sources = targetsOfEntries(created);
    expect(sources.targets).toEqual([]);
    expect(sources.removals).toHaveLength(30);
    const current = new Map(
      created.map((e) => [recordKey('orders', e.recordId!), { ...e.newValues! }]),
    );
    const plan = planRevert(sources.targets, current, sources.skipped, sources);
    expect(plan.removals.every((removal) => !removal.conflict)).toBe(true);
    const writes = allRevertWrites(plan);
    expect(writes).toHaveLength(30);
    expect(writes[4]).toEqual({ collection: 'orders', recordId: '5', values: {}, kind: 'delete' });
  });

  it('deletes a created record changed since only when the user chooses to', () => {
    const sources = targetsOfEntries([
      entry({ operation: 'create', recordId: '7', newValues: { id: 7, status: 'new' } }),
      // The same change updated it afterwards: part of what the record should hold now.
      entry({
        recordId: '7',
        previousValues: { status: 'new' },
        newValues: { status: 'paid' },
        timestamp: '2026-01-01T10:00:01.000Z',
      }),
      entry({ operation: 'create', recordId: '8', newValues: { id: 8, status: 'new' } }),
    ]);
    expect(sources.targets).toEqual([]);
    const current = new Map([
      [recordKey('orders', '7'), { id: 7, status: 'paid' }],
      // Someone shipped #8 since it was created.
      [recordKey('orders', '8'), { id: 8, status: 'shipped' }],
    ]);
    const plan = planRevert([], current, [], sources);
    expect(plan.removals.map((r) => [r.recordId, r.conflict, r.changed])).toEqual([
      ['7', false, []],
      ['8', true, ['status']],
    ]);
    expect(allRevertWrites(plan).map((write) => write.recordId)).toEqual(['7']);
    const anyway = new Map<string, ConflictChoice>([[recordChoiceKey('orders', '8'), 'revert']]);
    expect(allRevertWrites(plan, anyway).map((write) => write.recordId)).toEqual(['7', '8']);
  });

  it('reports a created record already deleted, without a write', () => {
    const sources = targetsOfEntries([
      entry({ operation: 'create', recordId: '9', newValues: { id: 9, status: 'new' } }),
    ]);
    const plan = planRevert([], new Map([[recordKey('orders', '9'), null]]), [], sources);
    expect(plan.removals).toEqual([]);
    expect(plan.skipped).toEqual([
      expect.objectContaining({ recordId: '9', reason: expect.stringMatching(/^Already deleted/) }),
    ]);
    expect(allRevertWrites(plan)).toEqual([]);
  });

  it('creates a deleted record again: a new id when the key is not writable, the same otherwise', () => {
    const sources = targetsOfEntries([
      entry({
        operation: 'delete',
        recordId: '4',
        // The foreign key as the history stores it: sent as the `customer` relation.
        previousValues: { id: 4, status: 'late', customer_id: 7 },
      }),
      entry({
        operation: 'delete',
        collection: 'codes',
        recordId: 'EU',
        previousValues: { code: 'EU', label: 'Europe', gone: 'x' },
      }),
    ]);
    const current = new Map([
      [recordKey('orders', '4'), null],
      [recordKey('codes', 'EU'), null],
    ]);
    const plan = planRevert([], current, [], { ...sources, collections: [orders, codes] });
    expect(plan.recreations).toEqual([
      {
        collection: 'orders',
        recordId: '4',
        values: { status: 'late' },
        toOne: { customer: { type: 'customers', id: '7' } },
        keepsId: false,
        redacted: [],
        conflict: false,
      },
      {
        collection: 'codes',
        recordId: 'EU',
        // A field the schema no longer has is not sent.
        values: { code: 'EU', label: 'Europe' },
        toOne: {},
        keepsId: true,
        redacted: [],
        conflict: false,
      },
    ]);
    expect(allRevertWrites(plan)).toEqual([
      {
        collection: 'orders',
        recordId: '4',
        values: { status: 'late' },
        toOne: { customer: { type: 'customers', id: '7' } },
        kind: 'create',
      },
      {
        collection: 'codes',
        recordId: 'EU',
        values: { code: 'EU', label: 'Europe' },
        toOne: {},
        kind: 'create',
      },
    ]);
  });

  it('names a redacted value a re-creation cannot restore, and creates without it only when told', () => {
    const sources = targetsOfEntries([
      entry({
        operation: 'delete',
        recordId: '5',
        previousValues: { id: 5, status: 'late', pin: '[REDACTED]' },
      }),
    ]);
    const plan = planRevert([], new Map([[recordKey('orders', '5'), null]]), [], {
      ...sources,
      collections: [orders],
    });
    expect(plan.recreations[0]).toMatchObject({
      redacted: ['pin'],
      conflict: true,
      values: { status: 'late' },
    });
    expect(allRevertWrites(plan)).toEqual([]);
    const proceed = new Map<string, ConflictChoice>([[recordChoiceKey('orders', '5'), 'revert']]);
    expect(allRevertWrites(plan, proceed)).toEqual([
      {
        collection: 'orders',
        recordId: '5',
        values: { status: 'late' },
        toOne: {},
        kind: 'create',
      },
    ]);
  });

  it('does not create twice a record that exists again, and undoes nothing of a record created then deleted', () => {
    const sources = targetsOfEntries([
      entry({ operation: 'delete', recordId: '6', previousValues: { id: 6, status: 'late' } }),
      entry({ operation: 'create', recordId: '10', newValues: { id: 10, status: 'new' } }),
      deletedLater('10', { id: 10, status: 'new' }, 2),
    ]);
    expect(sources.removals).toEqual([]);
    expect(sources.recreations.map((r) => r.recordId)).toEqual(['6']);
    const plan = planRevert([], new Map([[recordKey('orders', '6'), { id: 6 }]]), sources.skipped, {
      ...sources,
      collections: [orders],
    });
    expect(plan.recreations).toEqual([]);
    expect(plan.skipped.map((skip) => [skip.recordId, skip.reason])).toEqual([
      ['10', 'Created and deleted by the same change: nothing to undo.'],
      ['6', 'A record with this id exists again: it is not created twice.'],
    ]);
  });

  it('re-creates a record updated then deleted by the same change with its values of before', () => {
    const sources = targetsOfEntries([
      entry({ recordId: '3', previousValues: { status: 'late' }, newValues: { status: 'paid' } }),
      deletedLater('3', { id: 3, status: 'paid' }, 3),
    ]);
    expect(sources.targets).toEqual([]);
    expect(sources.recreations).toEqual([
      { collection: 'orders', recordId: '3', values: { id: 3, status: 'late' } },
    ]);
  });
});
