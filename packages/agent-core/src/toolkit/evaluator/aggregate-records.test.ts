import { Aggregation } from '../query/aggregation';
import { aggregateRecords } from './aggregate-records';
import { dateBucket } from './date-buckets';

describe('aggregateRecords', () => {
  const context = { timezone: 'UTC' };
  const records = [
    { kind: 'a', amount: 10, at: '2024-01-03T10:00:00Z' },
    { kind: 'a', amount: null, at: '2024-01-08T10:00:00Z' },
    { kind: 'b', amount: 4, at: '2024-04-01T00:00:00Z' },
    { kind: 'c', amount: null, at: null },
  ];

  it('counts records without a field and non-null values with one', () => {
    expect(aggregateRecords(records, new Aggregation({ operation: 'Count' }), context)).toEqual([
      { value: 4, group: {} },
    ]);
    expect(
      aggregateRecords(records, new Aggregation({ operation: 'Count', field: 'amount' }), context),
    ).toEqual([{ value: 2, group: {} }]);
  });

  it('omits Avg groups without values and sorts by value descending', () => {
    const rows = aggregateRecords(
      records,
      new Aggregation({ operation: 'Avg', field: 'amount', groups: [{ field: 'kind' }] }),
      context,
    );
    expect(rows).toEqual([
      { value: 10, group: { kind: 'a' } },
      { value: 4, group: { kind: 'b' } },
    ]);
  });

  it('computes Min, Max and Sum, and applies the limit', () => {
    expect(
      aggregateRecords(records, new Aggregation({ operation: 'Max', field: 'amount' }), context)[0]
        ?.value,
    ).toBe(10);
    expect(
      aggregateRecords(records, new Aggregation({ operation: 'Min', field: 'amount' }), context)[0]
        ?.value,
    ).toBe(4);
    const sums = aggregateRecords(
      records,
      new Aggregation({ operation: 'Sum', field: 'amount', groups: [{ field: 'kind' }] }),
      context,
      2,
    );
    expect(sums).toEqual([
      { value: 10, group: { kind: 'a' } },
      { value: 4, group: { kind: 'b' } },
    ]);
  });

  it('groups dates by bucket', () => {
    const rows = aggregateRecords(
      records,
      new Aggregation({ operation: 'Count', groups: [{ field: 'at', operation: 'Quarter' }] }),
      context,
    );
    expect(rows).toEqual([
      { value: 2, group: { at: '2024-01-01' } },
      { value: 1, group: { at: '2024-04-01' } },
      { value: 1, group: { at: null } },
    ]);
  });
});

describe('dateBucket', () => {
  it.each([
    ['2024-03-31T23:30:00Z', 'Month', 'Europe/Paris', '2024-04-01'],
    ['2024-03-31T23:30:00Z', 'Month', 'UTC', '2024-03-01'],
    ['2024-01-01T05:00:00Z', 'Week', 'UTC', '2024-01-01'],
    ['2023-12-31T12:00:00Z', 'Week', 'UTC', '2023-12-25'],
    ['2023-12-31T12:00:00Z', 'Year', 'Pacific/Kiritimati', '2024-01-01'],
    ['2024-07-01T09:00:00Z', 'Quarter', 'Pacific/Pago_Pago', '2024-04-01'],
    ['2024-02-29', 'Day', 'Asia/Tokyo', '2024-02-29'],
  ] as const)('%s by %s in %s is %s', (value, operation, timezone, expected) => {
    expect(dateBucket(value, operation, timezone)).toBe(expected);
  });
});
