import { describe, expect, it } from 'vitest';
import { activityQuery, effectiveFilters, outcomeOf } from './activity-api';

describe('outcomeOf', () => {
  it('reads a failure as failed with its reason, and a log without status as succeeded', () => {
    expect(outcomeOf({ status: 'failed', errorMessage: 'Stock is too low.' })).toEqual({
      label: 'Failed',
      kind: 'failed',
      reason: 'Stock is too low.',
    });
    expect(outcomeOf({ status: 'failed' })).toEqual({ label: 'Failed', kind: 'failed' });
    expect(outcomeOf({ status: 'completed' })).toEqual({ label: 'Succeeded', kind: 'succeeded' });
    expect(outcomeOf({})).toEqual({ label: 'Succeeded', kind: 'succeeded' });
    expect(outcomeOf({ status: 'pending' })).toEqual({ label: 'In progress', kind: 'pending' });
  });
});

describe('the outcome filter', () => {
  it('travels as status, beside the default that hides reads', () => {
    expect(activityQuery(effectiveFilters({ status: 'failed' }, false))).toBe(
      'type=write&status=failed',
    );
  });
});
