import { describe, expect, it } from 'vitest';
import { draftDiffers } from './filter-draft';

describe('a filter draft', () => {
  const applied = {
    aggregator: 'and' as const,
    conditions: [
      { field: 'status', operator: 'equal', value: 'paid' },
      {
        aggregator: 'or' as const,
        conditions: [
          { field: 'total', operator: 'greater_than', value: 10 },
          { field: 'id', operator: 'less_than', value: 5 },
        ],
      },
    ],
  };

  it('is not edited when it shows the applied filter, or the empty one', () => {
    expect(draftDiffers(structuredClone(applied), applied)).toBe(false);
    expect(
      draftDiffers({ aggregator: 'and', conditions: [{ field: '', operator: '' }] }, undefined),
    ).toBe(false);
  });

  it('is edited from the first change, even a condition still incomplete', () => {
    const draft = structuredClone(applied);
    draft.conditions.push({ field: 'email', operator: '', value: undefined as never });
    expect(draftDiffers(draft, applied)).toBe(true);
    expect(
      draftDiffers(
        { aggregator: 'and', conditions: [{ field: 'email', operator: '' }] },
        undefined,
      ),
    ).toBe(true);
  });
});
