import fc from 'fast-check';

import { createShopDataSource } from '../../http/test-fixtures/shop-services';
import { InMemoryDataSource } from '../../toolkit/in-memory/in-memory-data-source';
import { jsonString, serializeRecords, writeRecord, writeRecords } from './json-api';

describe('serializeRecords', () => {
  const orders = createShopDataSource().getCollection('orders');

  it('marks the attributes that contain the search text, keyed by string integers', () => {
    const document = serializeRecords(
      orders,
      [
        { id: 101, reference: 'SO-0101', notes: null },
        { id: 102, reference: 'SO-0102', notes: { text: 'call before' } },
        { id: 7, reference: 'X', notes: null },
      ],
      '01',
    );
    expect(document.meta).toEqual({
      decorators: {
        '0': { id: '101', search: ['id', 'reference'] },
        '1': { id: '102', search: ['reference'] },
      },
    });
  });

  it('omits meta when nothing matches, and encodes composite ids and link paths', () => {
    const document = serializeRecords(orders, [{ id: 101, reference: 'SO' }], 'zzz');
    expect(document.meta).toBeUndefined();
    expect(document.data).toEqual([
      expect.objectContaining({
        id: '101',
        relationships: expect.objectContaining({
          payments: { links: { related: { href: '/forest/orders/101/relationships/payments' } } },
        }),
      }),
    ]);
  });
});

describe('writeRecords', () => {
  const number = { type: 'Column', columnType: 'Number' } as const;
  const string = { type: 'Column', columnType: 'String' } as const;
  const dataSource = new InMemoryDataSource({
    companies: {
      fields: { id: { ...number, isPrimaryKey: true }, name: string },
      records: [],
    },
    'sales reps': {
      fields: {
        code: { ...string, isPrimaryKey: true },
        region: { ...string, isPrimaryKey: true },
        name: string,
        companyId: number,
        company: {
          type: 'ManyToOne',
          foreignCollection: 'companies',
          foreignKey: 'companyId',
          foreignKeyTarget: 'id',
        },
        '2': {
          type: 'OneToMany',
          foreignCollection: 'deals',
          originKey: 'repCode',
          originKeyTarget: 'code',
        },
      },
      records: [],
    },
    deals: {
      fields: {
        id: { ...number, isPrimaryKey: true },
        title: string,
        signedAt: { type: 'Column', columnType: 'Date' },
        file: { type: 'Column', columnType: 'Binary' },
        extra: { type: 'Column', columnType: 'Json' },
        repCode: string,
        rep: {
          type: 'ManyToOne',
          foreignCollection: 'sales reps',
          foreignKey: 'repCode',
          foreignKeyTarget: 'code',
        },
        company: {
          type: 'ManyToOne',
          foreignCollection: 'companies',
          foreignKey: 'repCode',
          foreignKeyTarget: 'id',
        },
      },
      records: [],
    },
  });
  const deals = dataSource.getCollection('deals');

  it('writes values in their wire form and leaves out undefined ones, as JSON.stringify would', () => {
    const text = writeRecords(deals, [
      {
        id: 1,
        title: 'Say "hi" \\ to 東京\n',
        signedAt: new Date('2026-01-02T03:04:05.678Z'),
        file: Buffer.from('ab'),
        extra: { nested: [1, null, 'x'] },
        repCode: undefined,
        unknownKey: 'not a field',
      },
    ]);
    expect(text).toBe(
      '{"jsonapi":{"version":"1.0"},"data":[{"type":"deals","id":"1","attributes":{' +
        '"id":1,"title":"Say \\"hi\\" \\\\ to 東京\\n","signedAt":"2026-01-02T03:04:05.678Z",' +
        '"file":"data:application/octet-stream;base64,YWI=","extra":{"nested":[1,null,"x"]}},' +
        '"relationships":{}}]}',
    );
    expect(JSON.parse(text).data[0].attributes.title).toBe('Say "hi" \\ to 東京\n');
  });

  it('links to-one records once in included, the later values winning in their first places', () => {
    const acme = { id: 9, name: 'Acme' };
    const text = writeRecords(deals, [
      {
        id: 1,
        rep: { code: 'a|b', region: 'EU', name: 'Ann', company: acme },
        company: null,
      },
      { id: 2, rep: { code: 'a|b', region: 'EU', name: 'Ann B.', companyId: 9 } },
      { id: 3 },
    ]);
    const document = JSON.parse(text);
    expect(
      document.data.map((resource: { relationships: object }) => resource.relationships),
    ).toEqual([
      { rep: { data: { type: 'sales reps', id: 'a|b|EU' } }, company: { data: null } },
      { rep: { data: { type: 'sales reps', id: 'a|b|EU' } } },
      {},
    ]);
    // The rep's company is included before the rep, whose relationship link encodes its id.
    expect(document.included).toEqual([
      { type: 'companies', id: '9', attributes: { id: 9, name: 'Acme' }, relationships: {} },
      {
        type: 'sales reps',
        id: 'a|b|EU',
        attributes: { code: 'a|b', region: 'EU', name: 'Ann B.', companyId: 9 },
        relationships: {
          '2': { links: { related: { href: '/forest/sales%20reps/a%7Cb%7CEU/relationships/2' } } },
          company: { data: { type: 'companies', id: '9' } },
        },
      },
    ]);
    // A relation named like an array index comes first, as in an object's own key order.
    expect(text).toContain('"relationships":{"2":{"links"');
    expect(Object.keys(document.included[1].attributes)).toEqual([
      'code',
      'region',
      'name',
      'companyId',
    ]);
  });

  it('writes dates as JSON.stringify does, invalid ones as null', () => {
    const custom = new Date('2026-01-02T00:00:00.000Z');
    custom.toJSON = () => 'custom';
    const dates = [
      new Date('2026-01-02T03:04:05.678Z'),
      new Date(Number.NaN),
      new Date('+012345-06-07T00:00:00.000Z'),
      new Date('-000001-01-01T00:00:00.000Z'),
      custom,
    ];
    for (const signedAt of dates) {
      const document = JSON.parse(writeRecords(deals, [{ id: 1, signedAt }]));
      expect(document.data[0].attributes).toEqual(JSON.parse(JSON.stringify({ id: 1, signedAt })));
    }
  });

  it('writes one record, or null', () => {
    expect(writeRecord(deals, null)).toBe('{"jsonapi":{"version":"1.0"},"data":null}');
    expect(JSON.parse(writeRecord(deals, { id: 4, title: null }))).toEqual({
      jsonapi: { version: '1.0' },
      data: { type: 'deals', id: '4', attributes: { id: 4, title: null }, relationships: {} },
    });
  });

  it('throws on a value JSON cannot hold, as JSON.stringify does', () => {
    expect(() => writeRecords(deals, [{ id: 1, title: 10n }])).toThrow(TypeError);
  });
});

describe('jsonString', () => {
  it('writes every string as JSON.stringify does', () => {
    // Characters that must or may be escaped (quote, backslash, controls, lone and paired
    // surrogates) among plain ones, in strings around the length past which it defers to
    // JSON.stringify.
    const character = fc.oneof(
      fc.constantFrom(
        '"',
        '\\',
        '\n',
        '\u0000',
        '\u001f',
        '\u007f',
        '\ud800',
        '\udfff',
        '東',
        '😀',
      ),
      fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
      fc.string({ minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(character, { maxLength: 80 }), (characters) => {
        const value = characters.join('');
        expect(jsonString(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 5000 },
    );
    expect(jsonString('2025-11-28T23:57:00.000Z')).toBe('"2025-11-28T23:57:00.000Z"');
    expect(jsonString('say "hi"')).toBe('"say \\"hi\\""');
  });
});
