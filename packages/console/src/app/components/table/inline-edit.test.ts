import { describe, expect, it } from 'vitest';
import type { SchemaCollection, SchemaField } from '../../../protocol';
import { editedValue, editText, inlineEditor } from './inline-edit';

const orders = { name: 'orders', fields: [] } as SchemaCollection;
const field = (type: SchemaField['type'], more: Partial<SchemaField> = {}): SchemaField => ({
  field: 'f',
  type,
  ...more,
});

describe('inline editing', () => {
  it('gives writable simple columns an editor when the user may update', () => {
    expect(inlineEditor(orders, field('String'), true)).toBe('text');
    expect(inlineEditor(orders, field('Number'), true)).toBe('number');
    expect(inlineEditor(orders, field('Boolean'), true)).toBe('boolean');
    expect(inlineEditor(orders, field('Enum', { enums: ['a'] }), true)).toBe('enum');
    expect(inlineEditor(orders, field('Date'), true)).toBe('date');
    expect(inlineEditor(orders, field('Dateonly'), true)).toBe('dateonly');
  });

  it('gives none without the right, to read-only, key, relation, list or JSON columns', () => {
    expect(inlineEditor(orders, field('String'), false)).toBeUndefined();
    expect(inlineEditor({ ...orders, isReadOnly: true }, field('String'), true)).toBeUndefined();
    expect(inlineEditor(orders, field('String', { isReadOnly: true }), true)).toBeUndefined();
    expect(inlineEditor(orders, field('Number', { isPrimaryKey: true }), true)).toBeUndefined();
    expect(
      inlineEditor(orders, field('Number', { relationship: 'BelongsTo' }), true),
    ).toBeUndefined();
    expect(inlineEditor(orders, field(['String']), true)).toBeUndefined();
    expect(inlineEditor(orders, field('Json'), true)).toBeUndefined();
    expect(inlineEditor(orders, field('Enum'), true)).toBeUndefined();
  });

  it('turns the typed text into the value sent', () => {
    expect(editText('text', null)).toBe('');
    expect(editText('number', 12.5)).toBe('12.5');
    expect(editText('dateonly', '2026-03-04')).toBe('2026-03-04');
    const local = editText('date', '2026-03-04T10:20:00.000Z');
    expect(local).toMatch(/^2026-03-0\dT\d\d:\d\d$/);
    expect(editedValue('date', local)).toEqual({ value: '2026-03-04T10:20:00.000Z' });
    expect(editedValue('date', 'nope')).toEqual({ problem: 'Enter a date.' });
    expect(editedValue('text', '')).toEqual({ value: '' });
    expect(editedValue('number', ' 1 200 ')).toEqual({ value: 1200 });
    expect(editedValue('number', 'abc')).toEqual({ problem: 'Enter a number.' });
    expect(editedValue('number', '')).toEqual({ value: null });
    expect(editedValue('boolean', 'false')).toEqual({ value: false });
    expect(editedValue('enum', 'paid')).toEqual({ value: 'paid' });
  });
});
