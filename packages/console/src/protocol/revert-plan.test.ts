import { describe, expect, it } from 'vitest';

import type { HistoryEntry } from './history';
import {
  changeKey,
  type ConflictChoice,
  planRevert,
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

  it('skips creations, deletions, redacted values and records that are gone', () => {
    const { targets, skipped } = targetsOfEntries([
      entry({ operation: 'create', recordId: '9', newValues: { status: 'new' } }),
      entry({ operation: 'delete', recordId: '8', previousValues: { status: 'old' } }),
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
    expect(skipped.map((skip) => skip.recordId)).toEqual(['9', '8', '2', '4']);
    const plan = planRevert(targets, new Map([[recordKey('orders', '3'), null]]), skipped);
    expect(plan.changes).toEqual([]);
    expect(plan.skipped.map((skip) => skip.recordId)).toEqual(['9', '8', '2', '4', '3']);
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
