import { describe, expect, it } from 'vitest';
import type { SchemaField } from '../../protocol';
import { editWidgetOf, editWidgetTypes } from './edit-widgets';
import { setWidget } from './layout-edit';

const field = (name: string, type: SchemaField['type'], more: Partial<SchemaField> = {}) =>
  ({ field: name, type, ...more }) as SchemaField;

describe('edit widgets', () => {
  it('offers the widgets that fit a field’s type, none for relations and lists', () => {
    expect(editWidgetTypes(field('notes', 'String'))).toContain('markdown');
    expect(editWidgetTypes(field('paid', 'Boolean'))).toEqual(['switch']);
    expect(editWidgetTypes(field('stars', 'Number'))).toContain('rating');
    expect(editWidgetTypes(field('status', 'Enum', { enums: ['a'] }))).toEqual(['badge']);
    expect(editWidgetTypes(field('tags', ['String']))).toEqual([]);
    expect(editWidgetTypes(field('at', 'Date'))).toEqual([]);
  });

  it('gives a field its edit widget only when it still fits the field', () => {
    const own = {
      fields: {
        paid: { edit: { type: 'switch' as const, settings: { trueLabel: 'Paid' } } },
        stars: { edit: { type: 'switch' as const } },
      },
    };
    expect(editWidgetOf(own, field('paid', 'Boolean'))?.settings).toEqual({ trueLabel: 'Paid' });
    expect(editWidgetOf(own, field('stars', 'Number'))).toBeUndefined();
  });

  it('sets the edit widget beside the display one, and removes it', () => {
    const display = { type: 'badge' as const, settings: { colours: {} } };
    const shown = setWidget(null, 'orders', 'status', 'display', display);
    const both = setWidget(shown, 'orders', 'status', 'edit', {
      type: 'badge',
      settings: { colours: {} },
    });
    expect(Object.keys(both.collections!.orders!.fields!.status!)).toEqual(['display', 'edit']);
    const back = setWidget(both, 'orders', 'status', 'edit', undefined);
    expect(back.collections!.orders!.fields!.status).toEqual({ display });
  });
});
