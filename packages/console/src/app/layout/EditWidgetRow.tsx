/**
 * A field's edit widget in layout mode (FormLayoutPanel.tsx): the widgets that fit its type
 * (edit-widgets.ts) and the chosen one's settings — a long text's rows, a switch's labels, a
 * rating's maximum, a badge's colour per value.
 */
import { Select, Stack } from '@mantine/core';
import type { LayoutWidget } from '@canopy/platform-protocol';
import { humanize, type SchemaField } from '../../protocol';
import { editWidgetTypes } from './edit-widgets';
import { startingWidget } from './layout-edit';
import { WidgetSettings } from './WidgetSettings';

export function EditWidgetRow({
  field,
  widget,
  onChange,
}: {
  field: SchemaField;
  widget: LayoutWidget | undefined;
  onChange(widget: LayoutWidget | undefined): void;
}) {
  const types = editWidgetTypes(field);
  if (types.length === 0) return null;
  const name = humanize(field.field);
  return (
    <Stack gap={4}>
      <Select
        size="xs"
        label={name}
        aria-label={`Edit widget of ${name}`}
        data={[
          { value: 'default', label: 'Default input' },
          ...types.map((type) => ({ value: type, label: humanize(type.replace(/-/g, '_')) })),
        ]}
        value={widget && types.includes(widget.type) ? widget.type : 'default'}
        allowDeselect={false}
        onChange={(type) =>
          onChange(
            type && type !== 'default' ? startingWidget(type as LayoutWidget['type']) : undefined,
          )
        }
      />
      {widget && <WidgetSettings widget={widget} field={field} onChange={onChange} />}
    </Stack>
  );
}
