/**
 * A create or edit form's fields in the sections of the team's layout (form-layout.ts): a titled
 * box per section, the inputs in the layout's order, drawn by the form (`input`).
 */
import type { LayoutWidget } from '@canopy/platform-protocol';
import type { ReactNode } from 'react';
import type { SchemaCollection, SchemaField } from '../../protocol';
import { collectionLayout } from './apply-layout';
import { editWidgetOf } from './edit-widgets';
import { SectionBox } from './SectionBox';
import { applyForm, type AppliedForm } from './form-layout';
import { useTeamLayout } from './team-layout';

/**
 * The form's sections and read-only fields for the team (its draft, in layout mode), given the
 * form's fields (known after the page's early returns, hence a function).
 */
export function useFormLayout(
  collection: SchemaCollection | undefined,
  mode: 'create' | 'edit',
): (fields: readonly SchemaField[]) => AppliedForm & { widgets: Record<string, LayoutWidget> } {
  const { layout } = useTeamLayout();
  return (fields) => {
    const own = collection ? collectionLayout(layout, collection.name) : undefined;
    const widgets: Record<string, LayoutWidget> = {};
    for (const field of fields) {
      const widget = editWidgetOf(own, field);
      if (widget) widgets[field.field] = widget;
    }
    const required = fields.filter((field) => field.isRequired && !field.isReadOnly);
    const names = (list: readonly SchemaField[]) => list.map((field) => field.field);
    return { ...applyForm(own, mode, names(fields), names(required)), widgets };
  };
}

export function FormSections({
  form,
  fields,
  input,
}: {
  form: AppliedForm;
  fields: readonly SchemaField[];
  /** The input of a field; `readOnly`: the layout makes it read-only. */
  input(field: SchemaField, readOnly: boolean): ReactNode;
}) {
  return form.sections.map((section, index) => (
    <SectionBox key={`${index}:${section.title ?? ''}`} title={section.title} as="fieldset">
      {section.fields.map((name) => {
        const field = fields.find((candidate) => candidate.field === name);
        return field ? input(field, form.readOnly.has(name)) : null;
      })}
    </SectionBox>
  ));
}
