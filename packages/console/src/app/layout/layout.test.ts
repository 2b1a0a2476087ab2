import { describe, expect, it } from 'vitest';
import type { ConsoleLayout } from '@canopy/platform-protocol';
import { applySidebar, applyTable, densitySpacing, displayWidgets } from './apply-layout';
import {
  editedColumns,
  moveColumn,
  setColumns,
  setDisplayWidget,
  setWidth,
  startingWidget,
  toggleColumn,
} from './layout-edit';
import {
  durationText,
  fillTemplate,
  formatPattern,
  relativeTime,
  widgetView,
} from './widget-format';

const context = { locale: 'en-US', timeZone: 'UTC', now: Date.parse('2026-11-28T12:00:00Z') };

describe('applyTable', () => {
  it('keeps the columns the user can see, in the layout order, with widths and defaults', () => {
    const applied = applyTable(
      {
        columns: [{ field: 'total', width: 120 }, { field: 'secret' }, { field: 'id' }],
        defaultSort: { field: 'total', ascending: false },
        pageSize: 50,
        density: 'compact',
        firstSegment: 'Late',
        rowColours: [{ filter: { field: 'total', operator: 'present' }, colour: '#ff0000' }],
      },
      ['id', 'total', 'status'],
    );
    expect(applied).toEqual({
      columns: ['total', 'id'],
      widths: { total: 120 },
      sort: '-total',
      pageSize: 50,
      density: 'compact',
      firstSegment: 'Late',
      rowColours: [{ filter: { field: 'total', operator: 'present' }, colour: '#ff0000' }],
    });
  });

  it('changes nothing without a table layout, and ignores a sort on a hidden field', () => {
    expect(applyTable(undefined, ['id'])).toEqual({
      columns: undefined,
      widths: {},
      sort: undefined,
      pageSize: undefined,
      density: undefined,
      firstSegment: undefined,
      rowColours: undefined,
    });
    expect(applyTable({ defaultSort: { field: 'secret', ascending: true } }, ['id']).sort).toBe(
      undefined,
    );
  });

  it('maps densities and display widgets', () => {
    expect([densitySpacing('compact'), densitySpacing(undefined)]).toEqual([2, undefined]);
    expect(
      displayWidgets({
        fields: { total: { display: { type: 'currency' } }, note: { edit: { type: 'text' } } },
      }),
    ).toEqual({ total: { type: 'currency' } });
  });
});

describe('applySidebar', () => {
  const layout: ConsoleLayout = {
    sidebar: {
      items: [
        { type: 'collection', collection: 'orders', displayName: 'Sales', icon: 'receipt' },
        {
          type: 'group',
          name: 'People',
          icon: 'users',
          collections: [
            { type: 'collection', collection: 'customers' },
            { type: 'collection', collection: 'secret' },
          ],
        },
        { type: 'collection', collection: 'logs', hidden: true },
        { type: 'group', name: 'Empty', collections: [{ type: 'collection', collection: 'x' }] },
      ],
    },
  };

  it('orders, groups, renames and hides; unmentioned collections follow; unknown ones never show', () => {
    expect(applySidebar(layout, ['customers', 'logs', 'orders', 'products'])).toEqual([
      { type: 'collection', collection: 'orders', displayName: 'Sales', icon: 'receipt' },
      { type: 'group', name: 'People', icon: 'users', collections: [{ collection: 'customers' }] },
      { type: 'collection', collection: 'products' },
    ]);
  });

  it('is today’s sidebar without a layout', () => {
    expect(applySidebar(null, ['a', 'b'])).toEqual([
      { type: 'collection', collection: 'a' },
      { type: 'collection', collection: 'b' },
    ]);
  });
});

describe('widgetView', () => {
  it('formats currencies from a code or a field of the record', () => {
    expect(
      widgetView({ type: 'currency', settings: { currency: 'EUR' } }, 1353.6, {}, context),
    ).toEqual({
      kind: 'text',
      text: '€1,353.60',
    });
    expect(
      widgetView(
        { type: 'currency', settings: { currencyField: 'cur' } },
        '10',
        { cur: 'usd' },
        context,
      ),
    ).toEqual({ kind: 'text', text: '$10.00' });
    expect(
      widgetView({ type: 'currency', settings: { currencyField: 'cur' } }, 10, {}, context),
    ).toBe(undefined);
  });

  it('colours badges per value, with a default, and only valid colours', () => {
    const badge = {
      type: 'badge' as const,
      settings: { colours: { paid: '#22aa44', bad: 'red' }, defaultColour: '#888888' },
    };
    expect(widgetView(badge, 'paid', {}, context)).toEqual({
      kind: 'badge',
      text: 'paid',
      colour: '#22aa44',
    });
    expect(widgetView(badge, 'bad', {}, context)).toEqual({
      kind: 'badge',
      text: 'bad',
      colour: '#888888',
    });
  });

  it('shows images from http(s) and raster data URIs only', () => {
    const image = { type: 'image' as const, settings: { height: 48 } };
    expect(widgetView(image, 'https://x.test/a.png', {}, context)).toEqual({
      kind: 'image',
      src: 'https://x.test/a.png',
      height: 48,
    });
    expect(widgetView(image, 'data:image/png;base64,AAAA', {}, context)?.kind).toBe('image');
    expect(widgetView(image, 'javascript:alert(1)', {}, context)).toBe(undefined);
    expect(widgetView(image, 'data:image/svg+xml;base64,AAAA', {}, context)).toBe(undefined);
  });

  it('writes relative times, percentages, progress, ratings and numbers', () => {
    expect(widgetView({ type: 'relative-time' }, '2026-11-25T12:00:00Z', {}, context)).toEqual({
      kind: 'text',
      text: '3 days ago',
    });
    expect(relativeTime(new Date('2026-11-28T14:00:00Z'), context.now, 'en-US')).toBe('in 2 hours');
    expect(
      widgetView({ type: 'percentage', settings: { ratio: true } }, 0.25, {}, context),
    ).toEqual({
      kind: 'text',
      text: '25%',
    });
    expect(
      widgetView({ type: 'percentage', settings: { decimals: 1 } }, 12.34, {}, context),
    ).toEqual({
      kind: 'text',
      text: '12.3%',
    });
    expect(
      widgetView({ type: 'progress', settings: { max: 200 } }, 250, {}, context),
    ).toMatchObject({
      kind: 'progress',
      percent: 100,
    });
    expect(widgetView({ type: 'rating', settings: { max: 5 } }, 3.6, {}, context)).toEqual({
      kind: 'rating',
      value: 4,
      max: 5,
    });
    expect(
      widgetView(
        { type: 'number', settings: { format: 'grouped', decimals: 2, suffix: ' kg' } },
        1234.5,
        {},
        context,
      ),
    ).toEqual({ kind: 'text', text: '1,234.50 kg' });
  });

  it('handles colours, switches, datetimes, links and JSON', () => {
    expect(widgetView({ type: 'colour' }, '#aabbcc', {}, context)).toEqual({
      kind: 'colour',
      colour: '#aabbcc',
    });
    expect(widgetView({ type: 'colour' }, 'url(x)', {}, context)).toBe(undefined);
    expect(
      widgetView({ type: 'switch', settings: { trueLabel: 'Active' } }, true, {}, context),
    ).toEqual({
      kind: 'switch',
      on: true,
      text: 'Active',
    });
    expect(
      widgetView(
        { type: 'datetime', settings: { format: 'yyyy-MM-dd HH:mm' } },
        '2026-01-02T03:04:05Z',
        {},
        context,
      ),
    ).toEqual({ kind: 'text', text: '2026-01-02 03:04' });
    expect(formatPattern(new Date('2026-01-02T23:30:00Z'), 'dd/MM/yy', 'Europe/Paris')).toBe(
      '03/01/26',
    );
    expect(
      widgetView(
        { type: 'link', settings: { urlTemplate: 'https://crm.test/{{id}}', label: 'Open' } },
        'x',
        { id: 'a b' },
        context,
      ),
    ).toEqual({ kind: 'link', href: 'https://crm.test/a%20b', text: 'Open', newTab: true });
    expect(
      widgetView(
        { type: 'link', settings: { urlTemplate: '{{u}}' } },
        'x',
        { u: 'javascript:1' },
        context,
      ),
    ).toBe(undefined);
    expect(fillTemplate('{{a}}-{{ b }}', { a: 1, b: '/' })).toBe('1-%2F');
    expect(
      widgetView({ type: 'json', settings: { collapsed: true } }, { a: 1 }, {}, context),
    ).toEqual({
      kind: 'json',
      text: '{"a":1}',
    });
  });

  it('falls back to today’s cell for empty values, unknown widgets and wrong kinds', () => {
    expect(widgetView({ type: 'currency', settings: { currency: 'EUR' } }, null, {}, context)).toBe(
      undefined,
    );
    expect(widgetView({ type: 'has-many-count' }, 3, {}, context)).toBe(undefined);
    expect(widgetView({ type: 'nonsense' as never }, 'x', {}, context)).toBe(undefined);
    expect(widgetView({ type: 'rating' }, 'many', {}, context)).toBe(undefined);
    expect(widgetView({ type: 'markdown' }, '**hi**', {}, context)).toEqual({
      kind: 'markdown',
      source: '**hi**',
    });
  });
});

describe('durations, addresses and phone numbers', () => {
  it('shows a duration in its two largest units', () => {
    const view = (value: unknown, unit: string) =>
      widgetView({ type: 'duration', settings: { unit } }, value, {}, context);
    expect(view(3913, 'seconds')).toEqual({ kind: 'text', text: '1 hr, 5 min' });
    expect(view(90, 'minutes')).toEqual({ kind: 'text', text: '1 hr, 30 min' });
    expect(view(2.5, 'days')).toEqual({ kind: 'text', text: '2 days, 12 hr' });
    expect(view(350, 'milliseconds')).toEqual({ kind: 'text', text: '350 ms' });
    expect(view(0, 'seconds')).toEqual({ kind: 'text', text: '0 sec' });
    expect(durationText(-61, 'seconds', 'en-GB')).toBe('−1 min, 1 sec');
    expect(view('soon', 'seconds')).toBeUndefined();
  });

  it('links e-mail addresses, web addresses and phone numbers, and nothing else', () => {
    expect(widgetView({ type: 'email' }, ' ada@shop.example ', {}, context)).toEqual({
      kind: 'link',
      href: 'mailto:ada@shop.example',
      text: 'ada@shop.example',
      newTab: false,
    });
    expect(widgetView({ type: 'email' }, 'not an address', {}, context)).toBeUndefined();
    expect(
      widgetView(
        { type: 'url', settings: { openInNewTab: false } },
        'https://a.test/x',
        {},
        context,
      ),
    ).toEqual({ kind: 'link', href: 'https://a.test/x', text: 'https://a.test/x', newTab: false });
    expect(widgetView({ type: 'url' }, 'javascript:alert(1)', {}, context)).toBeUndefined();
    expect(widgetView({ type: 'phone' }, '+33 1 23 45 67 89', {}, context)).toEqual({
      kind: 'link',
      href: 'tel:+33123456789',
      text: '+33 1 23 45 67 89',
      newTab: false,
    });
    expect(widgetView({ type: 'phone' }, 'ask Bob', {}, context)).toBeUndefined();
  });
});

describe('layout edits', () => {
  const columns = [{ field: 'a' }, { field: 'b', width: 90 }, { field: 'c' }];

  it('moves, shows, hides and sizes columns without mutating', () => {
    expect(moveColumn(columns, 0, 1).map((c) => c.field)).toEqual(['b', 'a', 'c']);
    expect(moveColumn(columns, 0, -1)).toBe(columns);
    expect(toggleColumn(columns, 'b', false).map((c) => c.field)).toEqual(['a', 'c']);
    expect(toggleColumn(columns, 'd', true).map((c) => c.field)).toEqual(['a', 'b', 'c', 'd']);
    expect(toggleColumn([{ field: 'a' }], 'a', false)).toEqual([{ field: 'a' }]);
    expect(setWidth(columns, 'a', 10)[0]).toEqual({ field: 'a', width: 40 });
    expect(setWidth(columns, 'b', undefined)[1]).toEqual({ field: 'b' });
    expect(columns[1]).toEqual({ field: 'b', width: 90 });
  });

  it('writes columns and widgets into the layout document', () => {
    const layout = setColumns(null, 'orders', columns);
    expect(editedColumns(layout, 'orders', ['x'])).toBe(columns);
    expect(editedColumns(null, 'orders', ['x'])).toEqual([{ field: 'x' }]);
    const withWidget = setDisplayWidget(layout, 'orders', 'total', startingWidget('currency'));
    expect(withWidget.collections?.orders).toEqual({
      table: { columns },
      fields: { total: { display: { type: 'currency', settings: { currency: 'EUR' } } } },
    });
    expect(
      setDisplayWidget(withWidget, 'orders', 'total', undefined).collections?.orders?.fields,
    ).toEqual({});
  });
});
