import knex from 'knex';
import { ConditionRecorder } from './condition-recorder';
import { StatementCache, shapeKey } from './statement-cache';

describe('StatementCache', () => {
  it('keeps at most its capacity, dropping the least recently used entry', () => {
    const cache = new StatementCache<string>(2);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    cache.set('c', 'C');
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 3, misses: 1 });
  });

  it('names the least recently used key and removes an entry on request', () => {
    const cache = new StatementCache<string>(3);
    expect(cache.leastRecentlyUsed()).toBeUndefined();
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.get('a');
    expect(cache.leastRecentlyUsed()).toBe('b');
    expect(cache.delete('b')).toBe('B');
    expect(cache.delete('b')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.leastRecentlyUsed()).toBe('a');
  });

  it('keeps nothing with a capacity of 0', () => {
    const cache = new StatementCache<string>(0);
    cache.set('a', 'A');
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('shapeKey', () => {
  it('never gives two different part lists the same key', () => {
    expect(shapeKey(['ab', 'c'])).not.toBe(shapeKey(['a', 'bc']));
    expect(shapeKey(['a:1', ''])).not.toBe(shapeKey(['a', '1:']));
    expect(shapeKey(['x', 'y'])).toBe(shapeKey(['x', 'y']));
    expect(shapeKey(['a', 'b'], ['c'])).not.toBe(shapeKey(['a'], ['b', 'c']));
    expect(shapeKey(['a"', ''])).not.toBe(shapeKey(['a', '"']));
  });
});

describe('ConditionRecorder', () => {
  it('records identifiers and SQL in the shape, values apart, in binding order', () => {
    const recorder = new ConditionRecorder();
    recorder.builder
      .where((inner) => inner.whereRaw('?? = ?', ['t.a', 'x']).orWhereNull('t.a'))
      .whereRaw('?? IN (?, ?) AND ?? <> \\?', ['t.b', 1, 2, 't.c']);
    expect(recorder.cacheable).toBe(true);
    expect(recorder.values).toEqual(['x', 1, 2]);
    expect(recorder.shape).toEqual([
      'where',
      '(',
      'whereRaw',
      '?? = ?',
      't.a',
      'orWhereNull',
      't.a',
      ')',
      'whereRaw',
      '?? IN (?, ?) AND ?? <> \\?',
      't.b',
      't.c',
    ]);
  });

  it('gives different shapes for conditions whose SQL differs and equal ones otherwise', () => {
    const shape = (build: (recorder: ConditionRecorder) => void) => {
      const recorder = new ConditionRecorder();
      build(recorder);
      return shapeKey(recorder.shape);
    };
    const equal = (value: unknown) => (recorder: ConditionRecorder) =>
      value === null ? recorder.whereNull('t.a') : recorder.whereRaw('?? = ?', ['t.a', value]);
    expect(shape(equal('x'))).toBe(shape(equal('y')));
    expect(shape(equal('x'))).not.toBe(shape(equal(null)));
    expect(shape((r) => r.whereRaw('?? = ?', ['t.a', 1]))).not.toBe(
      shape((r) => r.whereRaw('?? = ?', ['t.b', 1])),
    );
  });

  it('replays the recorded calls into a knex builder: the same SQL as building it directly', () => {
    const sql = knex({ client: 'pg' });
    const build = (builder: ReturnType<ConditionRecorder['replay']>) =>
      builder
        .where((inner) =>
          inner
            .whereRaw('?? = ?', ['t.a', 'x'])
            .orWhere((nested) => nested.whereNull('t.b').whereNotNull('t.c')),
        )
        .whereRaw('?? IN (?, ?)', ['t.d', 1, 2])
        .orWhereRaw('1 = 0')
        .orWhereNotNull('t.e');
    const recorder = new ConditionRecorder();
    build(recorder.builder);
    const direct = build(sql.from('t').select('id')).toSQL();
    const replayed = recorder.replay(sql.from('t').select('id')).toSQL();
    expect(replayed.sql).toBe(direct.sql);
    expect(replayed.bindings).toEqual(direct.bindings);
    expect(replayed.bindings.slice(-recorder.values.length)).toEqual(recorder.values);
    // A call the cache key cannot describe is still replayed as it was made.
    const object = new ConditionRecorder();
    object.where({ a: 1 });
    expect(object.replay(sql.from('t')).toSQL().sql).toBe(
      sql.from('t').where({ a: 1 }).toSQL().sql,
    );
  });

  it('is not cacheable when knex would inline a binding or refuse it', () => {
    const undefinedValue = new ConditionRecorder();
    undefinedValue.whereRaw('?? = ?', ['t.a', undefined]);
    expect(undefinedValue.cacheable).toBe(false);
    const mismatch = new ConditionRecorder();
    mismatch.whereRaw('?? = ?', ['t.a']);
    expect(mismatch.cacheable).toBe(false);
    const nested = new ConditionRecorder();
    nested.whereRaw('?? = ?', ['t.a', { isRawInstance: true }]);
    expect(nested.cacheable).toBe(false);
    const object = new ConditionRecorder();
    object.where({ a: 1 });
    expect(object.cacheable).toBe(false);
  });
});
