/**
 * Edit widgets of a team's layout (public API §7, `fields.<field>.edit`): which widgets can edit
 * a field of each type, and the one the layout gives a field. Pure. A widget that does not fit
 * the field's type (the schema changed since the layout was made) is ignored: the form's own
 * input is used.
 */
import type { CollectionLayout, LayoutWidget, LayoutWidgetType } from '@canopy/platform-protocol';
import { isRelation, typeName, type SchemaField } from '../../protocol';

const BY_TYPE: Record<string, LayoutWidgetType[]> = {
  String: ['text', 'long-text', 'markdown', 'email', 'url', 'phone', 'colour'],
  Boolean: ['switch'],
  Number: ['number', 'rating'],
  Enum: ['badge'],
};

/** The edit widgets that fit a field (none for relations, files, JSON, dates). */
export function editWidgetTypes(field: SchemaField): LayoutWidgetType[] {
  if (isRelation(field) || Array.isArray(field.type)) return [];
  return BY_TYPE[typeName(field.type)] ?? [];
}

/** The edit widget the layout gives `field`, when it fits the field. */
export function editWidgetOf(
  own: CollectionLayout | undefined,
  field: SchemaField,
): LayoutWidget | undefined {
  const widget = own?.fields?.[field.field]?.edit;
  return widget && editWidgetTypes(field).includes(widget.type) ? widget : undefined;
}
