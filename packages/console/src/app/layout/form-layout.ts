/**
 * How a team's layout (public API §7, `forms`) shapes a create or edit form: its fields in
 * titled sections, in order, and the fields shown but not editable when editing
 * (`forms.edit.readOnlyInEdit` and the record page's `readOnlyFields`). Pure. A form layout
 * orders and hides what the form has; a required field it leaves out is still asked, in a last
 * section, so that a layout cannot make a record impossible to create.
 */
import type {
  CollectionLayout,
  ConsoleLayout,
  FormLayout,
  LayoutSection,
} from '@canopy/platform-protocol';

export interface AppliedForm {
  sections: LayoutSection[];
  readOnly: Set<string>;
}

export function applyForm(
  own: CollectionLayout | undefined,
  mode: 'create' | 'edit',
  /** The form's fields, in today's order. */
  fields: readonly string[],
  /** Of those, the ones the form must ask for. */
  required: readonly string[],
): AppliedForm {
  const form = own?.forms?.[mode];
  const readOnly = new Set(
    mode === 'edit'
      ? [...(form?.readOnlyInEdit ?? []), ...(own?.recordPage?.readOnlyFields ?? [])]
      : [],
  );
  if (!form?.sections) return { sections: [{ fields: [...fields] }], readOnly };
  const known = new Set(fields);
  const placed = new Set<string>();
  const sections = form.sections
    .map((section) => {
      const shown = section.fields.filter((field) => known.has(field) && !placed.has(field));
      for (const field of shown) placed.add(field);
      return { ...section, fields: shown };
    })
    .filter((section) => section.fields.length > 0);
  const left = required.filter((field) => known.has(field) && !placed.has(field));
  if (left.length > 0) sections.push({ fields: left });
  return sections.length > 0
    ? { sections, readOnly }
    : { sections: [{ fields: [...fields] }], readOnly };
}

/** The form being edited in layout mode: the layout's sections, else one with every field. */
export function editedForm(
  own: CollectionLayout | undefined,
  mode: 'create' | 'edit',
  fields: readonly string[],
): FormLayout {
  const form = own?.forms?.[mode];
  const known = new Set(fields);
  if (!form) return { sections: [{ fields: [...fields] }] };
  return {
    ...form,
    sections: form.sections.map((s) => ({ ...s, fields: s.fields.filter((f) => known.has(f)) })),
  };
}

/** The layout with `collection`'s `mode` form set (undefined: today's form again). */
export function setForm(
  layout: ConsoleLayout | null,
  collection: string,
  mode: 'create' | 'edit',
  form: FormLayout | undefined,
): ConsoleLayout {
  const base = layout ?? {};
  const current = base.collections?.[collection] ?? {};
  const { [mode]: _previous, ...otherForms } = current.forms ?? {};
  const forms = form ? { ...otherForms, [mode]: form } : otherForms;
  return {
    ...base,
    collections: { ...base.collections, [collection]: { ...current, forms } },
  };
}
