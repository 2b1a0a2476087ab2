/** One page of an action's form: its inputs, rows, separators and HTML blocks, in layout order. */
import { Divider, Group, Stack } from '@mantine/core';
import {
  isDynamicSearch,
  type ActionField,
  type ActionForm,
  type LayoutElement,
} from '../../../protocol';
import { ActionFieldInput } from './ActionFieldInput';
import { SafeHtml } from './SafeHtml';

export interface ActionFormPageProps {
  form: ActionForm;
  elements: readonly LayoutElement[];
  /** The problems of the values, by field. */
  errors: Record<string, string>;
  /** The field whose dynamic options are being searched. */
  searching: string | undefined;
  onChange(field: ActionField, value: unknown): void;
  onSearch(field: ActionField, text: string): void;
}

export function ActionFormPage({
  form,
  elements,
  errors,
  searching,
  onChange,
  onSearch,
}: ActionFormPageProps) {
  const fieldsById = new Map(form.fields.map((field) => [field.field, field]));
  const input = (id: string) => {
    const field = fieldsById.get(id);
    if (!field) return null;
    return (
      <ActionFieldInput
        key={id}
        field={field}
        error={errors[id]}
        onChange={(value) => onChange(field, value)}
        onSearch={isDynamicSearch(field) ? (text) => onSearch(field, text) : undefined}
        searching={searching === id}
      />
    );
  };
  const element = (item: LayoutElement, index: number) => {
    switch (item.component) {
      case 'input':
        return input(item.fieldId);
      case 'separator':
        return <Divider key={`s${index}`} />;
      case 'htmlBlock':
        return <SafeHtml key={`h${index}`} html={item.content} />;
      case 'row':
        return (
          <Group key={`r${index}`} grow align="flex-start">
            {item.fields.map((field) => input(field.fieldId))}
          </Group>
        );
      default:
        return null;
    }
  };
  return <Stack gap="sm">{elements.map(element)}</Stack>;
}
