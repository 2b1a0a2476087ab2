import { describe, expect, it } from 'vitest';
import { restoredParams, viewQuery } from '../components/list-state';

describe('the first segment: "no segment" is a choice the list keeps', () => {
  it('keeps `segment=` in the tab’s last view and restores it', () => {
    expect(viewQuery(new URLSearchParams('segment=&page=2'))).toBe('page=2&segment=');
    expect(viewQuery(new URLSearchParams('page=2'))).toBe('page=2');
    const restored = restoredParams(new URLSearchParams(), 'page=2&segment=', {});
    expect(restored?.get('segment')).toBe('');
    expect(restored?.get('page')).toBe('2');
    expect(restoredParams(new URLSearchParams(), 'segment=Pending', {})?.get('segment')).toBe(
      'Pending',
    );
  });
});
