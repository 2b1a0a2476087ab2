import { Projection } from './projection';

describe('Projection', () => {
  const projection = new Projection('id', 'title', 'author:name', 'author:country:code');

  it('splits columns and relations', () => {
    expect(projection.columns).toEqual(['id', 'title']);
    expect(Object.keys(projection.relations)).toEqual(['author']);
    expect([...(projection.relations.author ?? [])]).toEqual(['name', 'country:code']);
  });

  it('unions without duplicates and compares as sets', () => {
    const union = projection.union(['id', 'price']);
    expect([...union]).toEqual(['id', 'title', 'author:name', 'author:country:code', 'price']);
    expect(new Projection('a', 'b').equals(['b', 'a'])).toBe(true);
    expect(new Projection('a').equals(['a', 'b'])).toBe(false);
  });

  it('nests, unnests and replaces', () => {
    expect([...new Projection('a').nest('rel')]).toEqual(['rel:a']);
    expect([...new Projection('rel:a', 'rel:b').unnest()]).toEqual(['a', 'b']);
    expect(() => new Projection('a', 'rel:b').unnest()).toThrow(/Cannot unnest projection/);
    expect([
      ...new Projection('full', 'x').replace((p) => (p === 'full' ? ['a', 'x'] : p)),
    ]).toEqual(['a', 'x']);
  });

  it('re-shapes records to exactly the projection, keeping null relations', () => {
    const records = [
      { id: 1, title: 'Dune', extra: true, author: { name: 'Frank', country: { code: 'US' } } },
      { id: 2, title: 'Orphan', author: null },
    ];
    expect(projection.apply(records)).toEqual([
      { id: 1, title: 'Dune', author: { name: 'Frank', country: { code: 'US' } } },
      { id: 2, title: 'Orphan', author: null },
    ]);
  });

  it('returns plain arrays from array methods', () => {
    expect(projection.map((p) => p.length)).not.toBeInstanceOf(Projection);
  });
});
