import type { Collection } from '../toolkit/interfaces/collection';
import { recordEtag } from './record-etag';

// The tags below were computed by the previous implementation (a JSON.stringify replacer and a
// SHA-1 Hash object): a tag handed out before an upgrade must still match after it, or every
// conditional update sent with it would be refused.
const collection = {
  schema: {
    fields: {
      id: { type: 'Column' },
      title: { type: 'Column' },
      price: { type: 'Column' },
      big: { type: 'Column' },
      meta: { type: 'Column' },
      at: { type: 'Column' },
      missing: { type: 'Column' },
      tags: { type: 'Column' },
      file: { type: 'Column' },
      author: { type: 'ManyToOne' },
    },
  },
} as unknown as Collection;

const record = {
  id: 7,
  title: 'Dune — “first”',
  price: 12.5,
  big: 12345678901234567890n,
  meta: { z: 1, a: { y: [3, { b: 2, a: 1n }], x: null }, u: undefined },
  at: new Date('2024-01-02T03:04:05.006Z'),
  tags: ['b', 'a', undefined],
  file: Buffer.from('hi'),
  author: { id: 1 },
};

describe('recordEtag', () => {
  it('gives the tags of earlier versions for the same columns', () => {
    expect(recordEtag(collection, record)).toBe('"lCFrOaSRvGkoedqoLhwuywIjRhc"');
    expect(recordEtag(collection, { id: 7 })).toBe('"h3WrpMTyEXw2eVAL0ZVm9jQTWlk"');
  });

  it('does not depend on the order of keys in JSON values, nor on relations', () => {
    const reordered = {
      ...record,
      meta: { u: undefined, a: { x: null, y: [3, { a: 1n, b: 2 }] }, z: 1 },
      author: null,
    };
    expect(recordEtag(collection, reordered)).toBe(recordEtag(collection, record));
  });

  it('changes with any column value, nested ones included', () => {
    const tag = recordEtag(collection, record);
    expect(recordEtag(collection, { ...record, price: 12.51 })).not.toBe(tag);
    expect(recordEtag(collection, { ...record, big: 12345678901234567891n })).not.toBe(tag);
    expect(
      recordEtag(collection, { ...record, meta: { ...record.meta, a: { y: [3], x: null } } }),
    ).not.toBe(tag);
    expect(
      recordEtag(collection, { ...record, at: new Date('2024-01-02T03:04:05.007Z') }),
    ).not.toBe(tag);
  });
});
