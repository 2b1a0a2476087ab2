/**
 * The settings of a column's display widget in layout mode: the currency code (or the field
 * holding it), a colour per enum value of a badge, an image's height, a progress bar's maximum,
 * a rating's maximum, a date pattern, a link template. Widgets without settings (markdown,
 * relative time…) show nothing.
 */
import { ColorInput, NumberInput, Stack, TextInput } from '@mantine/core';
import type { LayoutWidget } from '@canopy/platform-protocol';
import type { SchemaField } from '../../protocol';

export function WidgetSettings({
  widget,
  field,
  onChange,
}: {
  widget: LayoutWidget;
  field: SchemaField;
  onChange(widget: LayoutWidget): void;
}) {
  const settings = widget.settings ?? {};
  const set = (name: string, value: unknown) => {
    const next = { ...settings };
    if (value === undefined || value === '') delete next[name];
    else next[name] = value;
    onChange({ ...widget, settings: next });
  };
  const label = (what: string) => `${what} of ${field.field}`;
  switch (widget.type) {
    case 'currency':
      return (
        <TextInput
          size="xs"
          label="Currency code"
          aria-label={label('Currency code')}
          placeholder="EUR"
          maxLength={3}
          value={String(settings.currency ?? '')}
          onChange={(event) => set('currency', event.currentTarget.value.toUpperCase())}
        />
      );
    case 'badge': {
      const colours = (settings.colours ?? {}) as Record<string, string>;
      const values = field.enums ?? Object.keys(colours);
      return (
        <Stack gap={4}>
          {values.map((value) => (
            <ColorInput
              key={value}
              size="xs"
              label={value}
              aria-label={`Colour of ${value}`}
              format="hex"
              value={colours[value] ?? ''}
              onChange={(colour) => {
                const next = { ...colours };
                if (/^#[0-9a-f]{6}$/i.test(colour)) next[value] = colour.toLowerCase();
                else delete next[value];
                set('colours', next);
              }}
            />
          ))}
        </Stack>
      );
    }
    case 'image':
      return (
        <NumberInput
          size="xs"
          label="Height (px)"
          aria-label={label('Image height')}
          min={16}
          max={1024}
          value={Number(settings.height ?? 32)}
          onChange={(value) => set('height', typeof value === 'number' ? value : undefined)}
        />
      );
    case 'progress':
    case 'rating':
      return (
        <NumberInput
          size="xs"
          label="Maximum"
          aria-label={label('Maximum')}
          min={1}
          max={widget.type === 'rating' ? 10 : undefined}
          value={typeof settings.max === 'number' ? settings.max : ''}
          onChange={(value) => set('max', typeof value === 'number' ? value : undefined)}
        />
      );
    case 'datetime':
      return (
        <TextInput
          size="xs"
          label="Pattern"
          aria-label={label('Date pattern')}
          value={String(settings.format ?? '')}
          onChange={(event) => set('format', event.currentTarget.value)}
        />
      );
    case 'link':
      return (
        <TextInput
          size="xs"
          label="Address with {{field}}"
          aria-label={label('Link address')}
          value={String(settings.urlTemplate ?? '')}
          onChange={(event) => set('urlTemplate', event.currentTarget.value)}
        />
      );
    default:
      return null;
  }
}
