import { ChartResultBuilder } from './chart-result-builder';

describe('ChartResultBuilder', () => {
  const builder = new ChartResultBuilder('UTC');

  it('builds value, distribution, percentage, objective, leaderboard and smart charts', () => {
    expect(builder.value(10)).toEqual({ countCurrent: 10 });
    expect(builder.value(10, 7)).toEqual({ countCurrent: 10, countPrevious: 7 });
    expect(builder.distribution({ a: 1, b: 2 })).toEqual([
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
    ]);
    // agent-http-protocol §10.2: a percentage is the bare number.
    expect(builder.percentage(42.5)).toBe(42.5);
    expect(builder.objective(3, 10)).toEqual({ value: 3, objective: 10 });
    expect(builder.leaderboard({ low: 1, high: 9, mid: 5 })).toEqual([
      { key: 'high', value: 9 },
      { key: 'mid', value: 5 },
      { key: 'low', value: 1 },
    ]);
    expect(builder.smart({ anything: [1] })).toEqual({ anything: [1] });
  });

  it.each([
    ['Day', ['01/01/2024', '02/01/2024', '03/01/2024']],
    ['Week', ['W1-2024']],
    ['Month', ['Jan 24']],
    ['Quarter', ['Q1-2024']],
    ['Year', ['2024']],
  ] as const)('buckets by %s with labels %p', (range, labels) => {
    const chart = builder.timeBased(range, [
      { date: '2024-01-01T10:00:00Z', value: 1 },
      { date: '2024-01-03T10:00:00Z', value: 2 },
    ]);
    expect(chart.map((point) => point.label)).toEqual(labels);
  });

  it('sums values per bucket, fills missing buckets with 0 and ignores nulls', () => {
    expect(
      builder.timeBased('Month', {
        '2024-01-15': 120,
        '2024-01-20': 5,
        '2024-03-02': 80,
        '2024-03-03': null,
      }),
    ).toEqual([
      { label: 'Jan 24', values: { value: 125 } },
      { label: 'Feb 24', values: { value: 0 } },
      { label: 'Mar 24', values: { value: 80 } },
    ]);
  });

  it('keeps null for a bucket whose only value is null, in timeBased as in multipleTimeBased', () => {
    expect(
      builder.timeBased('Month', [
        { date: '2024-01-15', value: null },
        { date: '2024-03-02', value: 4 },
      ]),
    ).toEqual([
      { label: 'Jan 24', values: { value: null } },
      { label: 'Feb 24', values: { value: 0 } },
      { label: 'Mar 24', values: { value: 4 } },
    ]);
    expect(
      builder.multipleTimeBased(
        'Month',
        ['2024-01-15', '2024-03-02'],
        [{ label: 'web', values: [null, 4] }],
      ),
    ).toEqual({
      labels: ['Jan 24', 'Feb 24', 'Mar 24'],
      values: [{ key: 'web', values: [null, null, 4] }],
    });
  });

  it('buckets in the caller time zone (a week starting on Monday, across a year boundary)', () => {
    const tokyo = new ChartResultBuilder('Asia/Tokyo');
    // 2023-12-31T20:00Z is already Monday 2024-01-01 in Tokyo.
    expect(tokyo.timeBased('Week', [{ date: '2023-12-31T20:00:00Z', value: 1 }])).toEqual([
      { label: 'W1-2024', values: { value: 1 } },
    ]);
    expect(builder.timeBased('Week', [{ date: '2023-12-31T20:00:00Z', value: 1 }])).toEqual([
      { label: 'W52-2023', values: { value: 1 } },
    ]);
  });

  it('builds multiple time-based lines with nulls for missing data', () => {
    expect(
      builder.multipleTimeBased(
        'Year',
        ['2022-05-01', '2024-05-01'],
        [
          { label: 'sales', values: [3, 4] },
          { label: 'refunds', values: [null, 1] },
        ],
      ),
    ).toEqual({
      labels: ['2022', '2023', '2024'],
      values: [
        { key: 'sales', values: [3, null, 4] },
        { key: 'refunds', values: [null, null, 1] },
      ],
    });
    expect(builder.multipleTimeBased('Day', [], [])).toEqual({ labels: null, values: null });
  });

  it('rejects unknown ranges and invalid dates', () => {
    expect(() => builder.timeBased('Hour' as never, [])).toThrow(
      "Invalid time range 'Hour'. Expected one of: Day, Week, Month, Quarter, Year.",
    );
    expect(() => builder.timeBased('Day', [{ date: 'soon', value: 1 }])).toThrow(
      'Invalid date in chart data: "soon".',
    );
  });
});
