/**
 * One column in layout mode: shown or not, moved up or down (buttons: keyboard accessible), its
 * width, its display widget and the widget's settings.
 */
import { Checkbox, Group, NumberInput, Paper, Select, Stack } from '@mantine/core';
import { LAYOUT_WIDGETS, type LayoutWidget } from '@canopy/platform-protocol';
import { humanize, isToMany, type SchemaField } from '../../protocol';
import { startingWidget } from './layout-edit';
import { MoveButtons } from './MoveButtons';
import { WidgetSettings } from './WidgetSettings';

const widgetOption = (type: LayoutWidget['type']) => ({
  value: type,
  label: humanize(type.replace(/-/g, '_')),
});

/** The widgets offered for a field: a to-many relation is shown only as its count. */
export function widgetOptions(field: SchemaField): { value: string; label: string }[] {
  if (isToMany(field)) return [widgetOption('has-many-count')];
  return [
    { value: 'default', label: 'Default' },
    ...LAYOUT_WIDGETS.filter((type) => type !== 'has-many-count').map(widgetOption),
  ];
}

export function ColumnLayoutRow({
  field,
  shown,
  width,
  widget,
  first,
  last,
  onShow,
  onMove,
  onWidth,
  onWidget,
}: {
  field: SchemaField;
  shown: boolean;
  width: number | undefined;
  widget: LayoutWidget | undefined;
  first: boolean;
  last: boolean;
  onShow(shown: boolean): void;
  onMove(by: number): void;
  onWidth(width: number | undefined): void;
  onWidget(widget: LayoutWidget | undefined): void;
}) {
  const name = humanize(field.field);
  return (
    <Paper withBorder p="xs" radius="sm" data-layout-column={field.field}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap={4}>
          <Checkbox
            size="xs"
            label={name}
            checked={shown}
            onChange={(event) => onShow(event.currentTarget.checked)}
          />
          {shown && <MoveButtons name={name} first={first} last={last} onMove={onMove} />}
        </Group>
        {shown && (
          <Group grow gap="xs" align="flex-start">
            <NumberInput
              size="xs"
              label="Width (px)"
              aria-label={`Width of ${name}`}
              placeholder="Auto"
              min={40}
              max={2000}
              step={10}
              value={width ?? ''}
              onChange={(value) => onWidth(typeof value === 'number' ? value : undefined)}
            />
            <Select
              size="xs"
              label="Shown as"
              aria-label={`Widget of ${name}`}
              data={widgetOptions(field)}
              value={widget?.type ?? 'default'}
              allowDeselect={false}
              onChange={(type) =>
                onWidget(
                  type && type !== 'default'
                    ? startingWidget(type as LayoutWidget['type'])
                    : undefined,
                )
              }
            />
          </Group>
        )}
        {shown && widget && <WidgetSettings widget={widget} field={field} onChange={onWidget} />}
      </Stack>
    </Paper>
  );
}
