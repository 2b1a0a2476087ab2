/**
 * Layout mode on a create or edit form (form-layout.ts): its fields in titled sections, in order,
 * and — for the edit form — the fields shown but not editable, as the editor's draft for a team,
 * previewed live on the form behind.
 */
import { Button, MultiSelect, Text } from '@mantine/core';
import { humanize, isRelation, isToOne, type SchemaCollection } from '../../protocol';
import { LayoutDrawer, type LayoutEditor } from './LayoutDrawer';
import { editedForm, setForm } from './form-layout';
import { setSectionFields, unplacedFields } from './record-layout-edit';
import { SectionsEditor } from './SectionsEditor';
import { EditWidgetRow } from './EditWidgetRow';
import { editWidgetOf } from './edit-widgets';
import { setWidget } from './layout-edit';

/** The fields a form has (RecordFormPage.tsx): no to-many; on create, no read-only value. */
const formFields = (collection: SchemaCollection, mode: 'create' | 'edit') =>
  collection.fields
    .filter((f) => !(isRelation(f) && !isToOne(f)))
    .filter((f) => !(mode === 'create' && f.isReadOnly && !isToOne(f)))
    .map((f) => f.field);

export default function FormLayoutPanel({
  collection,
  mode,
  onClose,
}: {
  collection: SchemaCollection;
  mode: 'create' | 'edit';
  onClose(): void;
}) {
  const title = `${mode === 'create' ? 'Create' : 'Edit'} form of ${humanize(collection.name)}`;
  return (
    <LayoutDrawer title={title} onClose={onClose}>
      {(editor) => <FormEditor editor={editor} collection={collection} mode={mode} />}
    </LayoutDrawer>
  );
}

function FormEditor({
  editor,
  collection,
  mode,
}: {
  editor: LayoutEditor;
  collection: SchemaCollection;
  mode: 'create' | 'edit';
}) {
  const name = collection.name;
  const fields = formFields(collection, mode);
  const own = editor.draft?.collections?.[name];
  const form = editedForm(own, mode, fields);
  const options = fields.map((field) => ({ value: field, label: humanize(field) }));
  const save = (next: typeof form | undefined) =>
    editor.change(setForm(editor.draft, name, mode, next));
  const hidden = unplacedFields([{ title: '', sections: form.sections }], fields);
  return (
    <>
      <Text fw={600} size="sm">
        Sections, in order
      </Text>
      <SectionsEditor
        sections={form.sections}
        owner="the form"
        options={options}
        onChange={(sections) => save({ ...form, sections })}
        onFields={(at, picked) => {
          const [tab] = setSectionFields([{ title: '', sections: form.sections }], 0, at, picked);
          save({ ...form, sections: (tab as { sections: typeof form.sections }).sections });
        }}
      />
      <Text size="xs" c="dimmed">
        {hidden.length
          ? `Not in the form: ${hidden.map(humanize).join(', ')} (a required field is still asked, last).`
          : 'Every field is in the form.'}
      </Text>
      {mode === 'edit' && (
        <MultiSelect
          label="Read-only when editing"
          description="Shown, but not changed. Rights still decide who may write."
          data={options}
          value={form.readOnlyInEdit ?? []}
          onChange={(next) => {
            const { readOnlyInEdit: _old, ...rest } = form;
            save(next.length ? { ...rest, readOnlyInEdit: next } : rest);
          }}
          searchable
          clearable
        />
      )}
      <Text fw={600} size="sm">
        Edit widgets
      </Text>
      {collection.fields
        .filter((field) => fields.includes(field.field) && !field.isReadOnly)
        .map((field) => (
          <EditWidgetRow
            key={field.field}
            field={field}
            widget={editWidgetOf(own, field)}
            onChange={(widget) =>
              editor.change(setWidget(editor.draft, name, field.field, 'edit', widget))
            }
          />
        ))}
      <Button variant="subtle" size="xs" onClick={() => save(undefined)}>
        Back to the default form
      </Button>
    </>
  );
}
