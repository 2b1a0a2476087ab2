import { describe, expect, it } from 'vitest';
import { AgentClient } from './client';
import {
  chartQueryProblem,
  fitLabel,
  kindOfQuery,
  smartChartData,
  statsBody,
  toChartData,
} from './charts';

describe('toChartData', () => {
  it('reads a value with its previous period and the change', () => {
    expect(toChartData('value', { countCurrent: 120, countPrevious: 100 })).toEqual({
      kind: 'value',
      current: 120,
      previous: 100,
      change: 0.2,
    });
    expect(toChartData('value', { countCurrent: 5 })).toEqual({ kind: 'value', current: 5 });
    // No change ratio against an empty previous period.
    expect(toChartData('value', { countCurrent: 5, countPrevious: 0 })).toEqual({
      kind: 'value',
      current: 5,
      previous: 0,
    });
  });

  it('reads distributions with empty keys named, and sorts leaderboards', () => {
    expect(
      toChartData('distribution', [
        { key: 'card', value: 3 },
        { key: null, value: 1 },
      ]),
    ).toEqual({
      kind: 'distribution',
      rows: [
        { key: 'card', value: 3 },
        { key: '(empty)', value: 1 },
      ],
    });
    expect(
      toChartData('leaderboard', [
        { key: 'b', value: 2 },
        { key: 'a', value: 9 },
      ]),
    ).toEqual({
      kind: 'leaderboard',
      rows: [
        { key: 'a', value: 9 },
        { key: 'b', value: 2 },
      ],
    });
  });

  it('reads time-based and multiple time-based series as chart rows', () => {
    expect(
      toChartData('time', [
        { label: 'Sep 25', values: { value: 8 } },
        { label: 'Oct 25', values: { value: 0 } },
      ]),
    ).toEqual({
      kind: 'time',
      rows: [
        { label: 'Sep 25', value: 8 },
        { label: 'Oct 25', value: 0 },
      ],
    });
    expect(
      toChartData('multiple-time', {
        labels: ['Jan 25', 'Feb 25'],
        values: [
          { key: 'web', values: [3, 5] },
          { key: 'shop', values: [null, 0] },
        ],
      }),
    ).toEqual({
      kind: 'multiple-time',
      series: ['web', 'shop'],
      rows: [
        { label: 'Jan 25', web: 3, shop: null },
        { label: 'Feb 25', web: 5, shop: 0 },
      ],
    });
  });

  it('reads a percentage as the bare number and an objective with its ratio', () => {
    expect(toChartData('percentage', 42.5)).toEqual({ kind: 'percentage', value: 42.5 });
    expect(toChartData('objective', { value: 80, objective: 100 })).toEqual({
      kind: 'objective',
      value: 80,
      objective: 100,
      ratio: 0.8,
    });
    // A UI-built objective chart: the agent answers the value, the objective is the chart's.
    expect(toChartData('objective', { value: 30 }, 120)).toEqual({
      kind: 'objective',
      value: 30,
      objective: 120,
      ratio: 0.25,
    });
    expect(toChartData('smart', { any: ['json'] })).toEqual({
      kind: 'smart',
      json: { any: ['json'] },
    });
  });

  it('draws a smart answer as the chart whose result shape it has', () => {
    expect(smartChartData(42)).toEqual({ kind: 'percentage', value: 42 });
    expect(smartChartData({ countCurrent: 5, countPrevious: 4 })).toMatchObject({
      kind: 'value',
      current: 5,
      previous: 4,
    });
    expect(smartChartData({ value: 3, objective: 6 })).toMatchObject({
      kind: 'objective',
      ratio: 0.5,
    });
    expect(smartChartData([{ key: 'card', value: 3 }])).toEqual({
      kind: 'distribution',
      rows: [{ key: 'card', value: 3 }],
    });
    expect(smartChartData([{ label: 'Jan 26', values: { value: 2 } }])).toEqual({
      kind: 'time',
      rows: [{ label: 'Jan 26', value: 2 }],
    });
    expect(smartChartData({ labels: ['Jan'], values: [{ key: 'a', values: [1] }] })).toEqual({
      kind: 'multiple-time',
      series: ['a'],
      rows: [{ label: 'Jan', a: 1 }],
    });
    // Named figures (what the demo's shop status answers) are listed, not dumped as JSON.
    expect(smartChartData({ outOfStock: 3, timezone: 'Europe/Paris' })).toEqual({
      kind: 'facts',
      rows: [
        { key: 'outOfStock', value: 3 },
        { key: 'timezone', value: 'Europe/Paris' },
      ],
    });
    expect(smartChartData({ nested: { a: 1 } })).toEqual({
      kind: 'smart',
      json: { nested: { a: 1 } },
    });
    expect(smartChartData([])).toEqual({ kind: 'smart', json: [] });
  });

  it('says what does not match when a chart is declared with the wrong kind', () => {
    expect(() => toChartData('value', [{ key: 'a', value: 1 }])).toThrow(
      "The agent's answer is not a value chart: expected {countCurrent, countPrevious?}.",
    );
    expect(() => toChartData('percentage', { value: 1 })).toThrow(/not a number/);
    expect(() => toChartData('time', [{ key: 'a', value: 1 }])).toThrow(/point 1/);
    expect(() => toChartData('distribution', [{ key: 'a', value: 'x' }])).toThrow(/row 1/);
  });
});

describe('UI-built charts', () => {
  const pie = {
    type: 'Pie' as const,
    sourceCollectionName: 'orders',
    aggregator: 'Count' as const,
    aggregateFieldName: null,
    groupByFieldName: 'status',
  };

  it('maps chart types to kinds and checks what each needs', () => {
    expect(kindOfQuery(pie)).toBe('distribution');
    expect(kindOfQuery({ ...pie, type: 'Line' })).toBe('time');
    expect(chartQueryProblem(pie)).toBeUndefined();
    expect(chartQueryProblem({ ...pie, groupByFieldName: undefined })).toMatch(/group-by/);
    expect(chartQueryProblem({ ...pie, type: 'Line' })).toMatch(/time range/);
    expect(chartQueryProblem({ ...pie, aggregator: 'Sum' })).toMatch(/field to aggregate/);
    expect(chartQueryProblem({ ...pie, type: 'Objective', objective: 0 })).toMatch(/objective/);
  });

  it('sends the definition itself to /stats with the time zone', async () => {
    const calls: { url: string; body: unknown }[] = [];
    const client = new AgentClient({
      baseUrl: 'http://agent.test/',
      timezone: 'Europe/Paris',
      getToken: () => 't',
      fetch: async (url, init) => {
        calls.push({ url: String(url), body: JSON.parse(String(init?.body)) });
        return new Response(
          JSON.stringify({ data: { id: 'x', type: 'stats', attributes: { value: [] } } }),
        );
      },
    });
    expect(await client.stats({ ...pie, filter: undefined })).toEqual([]);
    expect(calls).toEqual([
      {
        url: 'http://agent.test/forest/stats/orders?timezone=Europe%2FParis',
        body: statsBody(pie),
      },
    ]);
    expect(statsBody(pie)).toEqual({
      type: 'Pie',
      sourceCollectionName: 'orders',
      aggregator: 'Count',
      aggregateFieldName: null,
      groupByFieldName: 'status',
    });
  });
});

describe('fitLabel', () => {
  it('keeps short labels and the local part of e-mails, which tells them apart', () => {
    expect(fitLabel('Books', 12)).toBe('Books');
    const emails = ['ada.lovelace@example.com', 'alan.turing@example.com', 'grace@example.com'];
    const fitted = emails.map((email) => fitLabel(email, 16));
    expect(fitted).toEqual(['ada.lovelace@…', 'alan.turing@…', 'grace@…']);
    expect(new Set(fitted).size).toBe(emails.length);
    expect(fitLabel('someone.with.a.long.name@example.com', 10)).toBe('someone.w…');
    expect(fitLabel('A rather long category name', 10)).toBe('A rather …');
  });
});
