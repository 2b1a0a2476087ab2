import fc from 'fast-check';

import { readQuery } from './query-string';

/** The reference reading: URLSearchParams, repeated keys comma-joined. */
function reference(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }
  return query;
}

const read = (url: string) => ({ ...readQuery({ originalUrl: url }) });

describe('readQuery', () => {
  it('reads keys named like Object.prototype members as plain keys', () => {
    const query = readQuery({
      originalUrl: '/forest/orders?__proto__=x&constructor=y&toString=z&hasOwnProperty=w&a=1',
    });
    expect(Object.keys(query)).toEqual([
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'a',
    ]);
    expect(query.__proto__).toBe('x');
    expect(query.constructor).toBe('y');
    expect(query.toString).toBe('z');
    expect(query.valueOf).toBeUndefined();
    // Absent keys read as absent, whatever Object.prototype holds.
    expect('valueOf' in readQuery({ originalUrl: '/forest/orders?a=1' })).toBe(false);
  });

  it('keeps bracketed keys literal and joins repeated keys', () => {
    expect(
      read('/forest/orders?fields%5Borders%5D=id,name&page[size]=15&a=1&a=2&b=x+y%20z&c&=e&&'),
    ).toEqual({
      'fields[orders]': 'id,name',
      'page[size]': '15',
      a: '1,2',
      b: 'x y z',
      c: '',
      '': 'e',
    });
    expect(read('/forest/orders')).toEqual({});
    expect(read('/forest/orders?')).toEqual({});
  });

  it('reads stray % and invalid UTF-8 as URLSearchParams does', () => {
    for (const search of [
      'a=%',
      'a=%zz&b=1',
      'a=%E0%A4%A',
      'a=%ED%A0%80',
      '%FF=1',
      'a=100%+sure',
    ]) {
      expect(read(`/x?${search}`)).toEqual(reference(search));
    }
  });

  it('agrees with URLSearchParams on any query text', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '&',
        '=',
        '+',
        '%',
        '%2',
        '%25',
        '%26',
        '%3D',
        '%2B',
        '%C3%A9',
        '%E2%82%AC',
        '%FF',
        '[',
        ']',
        'a',
        'b',
        'é',
        ' ',
      ),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
        const search = pieces.join('');
        expect(read(`/x?${search}`)).toEqual(reference(search));
      }),
      { numRuns: 2000 },
    );
  });
});
