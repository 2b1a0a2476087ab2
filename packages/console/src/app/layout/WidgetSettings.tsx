/**
 * The settings of a column's display widget in layout mode: the currency code (or the field
 * holding it), a colour per enum value of a badge, an image's height, a progress bar's maximum,
 * a rating's maximum, a map's zoom, a date pattern, a link template. Widgets without settings (markdown,
 * relative time…) show nothing.
 */
import { ColorInput, Group, NumberInput, Stack, TextInput } from '@mantine/core';
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
    case 'switch':
      return (
        <Group grow gap="xs">
          {(['trueLabel', 'falseLabel'] as const).map((name) => (
            <TextInput
              key={name}
              size="xs"
              label={name === 'trueLabel' ? 'Label when on' : 'Label when off'}
              aria-label={label(name === 'trueLabel' ? 'Label when on' : 'Label when off')}
              value={String(settings[name] ?? '')}
              onChange={(event) => set(name, event.currentTarget.value)}
            />
          ))}
        </Group>
      );
    case 'long-text':
    case 'image':
    case 'progress':
    case 'rating':
    case 'map-point': {
      const image = widget.type === 'image';
      const map = widget.type === 'map-point';
      const [name, title] = image
        ? ['height', 'Height (px)']
        : map
          ? ['zoom', 'Map zoom (1–19)']
          : widget.type === 'long-text'
            ? ['rows', 'Rows']
            : ['max', 'Maximum'];
      const held = settings[name];
      return (
        <NumberInput
          size="xs"
          label={title}
          aria-label={label(title)}
          min={image ? 16 : 1}
          max={
            image
              ? 1024
              : map
                ? 19
                : widget.type === 'rating'
                  ? 10
                  : name === 'rows'
                    ? 50
                    : undefined
          }
          value={typeof held === 'number' ? held : image ? 32 : map ? 15 : ''}
          onChange={(value) => set(name, typeof value === 'number' ? value : undefined)}
        />
      );
    }
    case 'datetime':
    case 'link': {
      const [name, title] =
        widget.type === 'datetime'
          ? ['format', 'Pattern']
          : ['urlTemplate', 'Address with {{field}}'];
      return (
        <TextInput
          size="xs"
          label={title}
          aria-label={label(title)}
          value={String(settings[name] ?? '')}
          onChange={(event) => set(name, event.currentTarget.value)}
        />
      );
    }
    default:
      return null;
  }
}
