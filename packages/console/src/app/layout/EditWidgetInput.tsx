/**
 * A form's input drawn with the edit widget of the team's layout (edit-widgets.ts): a textarea of
 * so many rows for long text, a markdown textarea, an e-mail, address or phone input, a colour
 * picker, a switch with its labels, a rating, an enum picked among coloured badges.
 */
import {
  Badge,
  ColorInput,
  Group,
  Input,
  NumberInput,
  Rating,
  Select,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { LayoutWidget } from '@canopy/platform-protocol';
import type { SchemaField } from '../../protocol';

/** Loaded with the first form that uses an edit widget (EditWidget.tsx). */
export interface EditWidgetProps {
  widget: LayoutWidget;
  field: SchemaField;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
  error?: string;
  disabled: boolean;
  required?: boolean;
}

export default function EditWidgetInput({
  widget,
  field,
  value,
  onChange,
  ...common
}: EditWidgetProps) {
  const settings = widget.settings ?? {};
  const text = value === null || value === undefined ? '' : String(value);
  const onText = (event: { currentTarget: { value: string } }) =>
    onChange(event.currentTarget.value);
  const wrapped = { ...common, 'data-edit-widget': widget.type };
  switch (widget.type) {
    case 'long-text':
    case 'markdown':
      return (
        <Textarea
          {...wrapped}
          autosize
          minRows={typeof settings.rows === 'number' ? settings.rows : 4}
          description={widget.type === 'markdown' ? 'Markdown' : undefined}
          ff={widget.type === 'markdown' ? 'monospace' : undefined}
          value={text}
          onChange={onText}
        />
      );
    case 'email':
    case 'url':
    case 'phone':
    case 'text': {
      const type = { email: 'email', url: 'url', phone: 'tel', text: 'text' }[widget.type];
      return <TextInput {...wrapped} type={type} value={text} onChange={onText} />;
    }
    case 'colour':
      return <ColorInput {...wrapped} format="hex" value={text} onChange={onChange} />;
    case 'switch': {
      const on = value === true;
      const caption = on ? settings.trueLabel : settings.falseLabel;
      return (
        <Switch
          label={common.label}
          description={typeof caption === 'string' ? caption : undefined}
          checked={on}
          onChange={(event) => onChange(event.currentTarget.checked)}
          disabled={common.disabled}
          error={common.error}
          mt="lg"
          data-edit-widget="switch"
        />
      );
    }
    case 'rating':
      return (
        <Input.Wrapper {...wrapped}>
          <Rating
            count={typeof settings.max === 'number' ? settings.max : 5}
            value={typeof value === 'number' ? value : 0}
            onChange={onChange}
            readOnly={common.disabled}
            aria-label={common.label}
          />
        </Input.Wrapper>
      );
    case 'number':
      return (
        <NumberInput
          {...wrapped}
          value={value === null || value === undefined ? '' : Number(value)}
          onChange={(next) => onChange(next === '' ? null : Number(next))}
        />
      );
    case 'badge': {
      const colours = (settings.colours ?? {}) as Record<string, string>;
      const badge = (name: string) => (
        <Badge
          color={colours[name] ?? 'gray'}
          variant={colours[name] ? 'filled' : 'light'}
          autoContrast
          tt="none"
        >
          {name}
        </Badge>
      );
      return (
        <Select
          {...wrapped}
          data={field.enums ?? []}
          value={text || null}
          onChange={onChange}
          clearable={!field.isRequired}
          renderOption={({ option }) => <Group gap={4}>{badge(option.value)}</Group>}
        />
      );
    }
    default:
      return null;
  }
}
