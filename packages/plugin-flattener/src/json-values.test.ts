import { deepMerge, setAtPath, stableKey, valueAtPath } from './json-values';

describe('JSON values', () => {
  it('reads a path, null when anything on the way is missing', () => {
    const value = { geo: { lat: 1, zero: 0, nothing: null } };
    expect(valueAtPath(value, ['geo', 'lat'])).toBe(1);
    expect(valueAtPath(value, ['geo', 'zero'])).toBe(0);
    expect(valueAtPath(value, ['geo', 'lng'])).toBeNull();
    expect(valueAtPath(value, ['geo', 'lat', 'x'])).toBeNull();
    expect(valueAtPath(null, ['geo'])).toBeNull();
    expect(valueAtPath('text', ['length'])).toBeNull();
  });

  it('sets a path, replacing non-object parents', () => {
    const target: Record<string, unknown> = { geo: 'unknown' };
    setAtPath(target, ['geo', 'lat'], 2);
    expect(target).toEqual({ geo: { lat: 2 } });
  });

  it('deep-merges without touching the base; arrays and null replace', () => {
    const base = { a: { b: 1, c: [1, 2] }, d: 'x' };
    expect(deepMerge(base, { a: { c: [3], e: null } })).toEqual({
      a: { b: 1, c: [3], e: null },
      d: 'x',
    });
    expect(base).toEqual({ a: { b: 1, c: [1, 2] }, d: 'x' });
    expect(deepMerge('not an object', { a: 1 })).toEqual({ a: 1 });
  });

  it('gives equal keys to equal values whatever their key order', () => {
    expect(stableKey({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      stableKey({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
    expect(stableKey({ a: 1 })).not.toBe(stableKey({ a: '1' }));
  });
});
