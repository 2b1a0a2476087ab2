/**
 * Layout mode on a record page (record-layout-edit.ts): the page's tabs in order — tabs of
 * fields in titled sections, tabs of related collections — and the fields read-only when the
 * record is edited, as the editor's draft for a team, previewed live on the page behind.
 */
import { Button, Group, MultiSelect, Select, Text } from '@mantine/core';
import { humanize, type SchemaCollection } from '../../protocol';
import { useSchema } from '../data';
import { LayoutDrawer, type LayoutEditor } from './LayoutDrawer';
import {
  clearRecordPage,
  editedTabs,
  setRecordPage,
  unplacedFields,
  type EditedTab,
} from './record-layout-edit';
import { recordFields, relatedCollections } from './RecordTabs';
import { TabEditor } from './TabEditor';

export default function RecordLayoutPanel({
  collection,
  onClose,
}: {
  collection: SchemaCollection;
  onClose(): void;
}) {
  return (
    <LayoutDrawer title={`Record page of ${humanize(collection.name)}`} onClose={onClose}>
      {(editor) => <RecordPageEditor editor={editor} collection={collection} />}
    </LayoutDrawer>
  );
}

function RecordPageEditor({
  editor,
  collection,
}: {
  editor: LayoutEditor;
  collection: SchemaCollection;
}) {
  const schema = useSchema().data;
  const name = collection.name;
  const fields = recordFields(collection);
  const related = relatedCollections(collection, schema);
  const page = editor.draft?.collections?.[name]?.recordPage;
  const tabs = editedTabs(page, fields, related);
  const readOnly = (page?.readOnlyFields ?? []).filter((field) => fields.includes(field));
  const commit = (next: EditedTab[], nextReadOnly = readOnly) =>
    editor.change(setRecordPage(editor.draft, name, next, nextReadOnly));
  const options = fields.map((field) => ({ value: field, label: humanize(field) }));
  const missing = related.filter((r) => !tabs.some((tab) => 'related' in tab && tab.related === r));
  const hidden = unplacedFields(tabs, fields);

  return (
    <>
      <Text fw={600} size="sm">
        Tabs, in order
      </Text>
      {tabs.map((tab, index) => (
        <TabEditor
          key={`${index}:${'related' in tab ? tab.related : 'fields'}`}
          tabs={tabs}
          index={index}
          options={options}
          onChange={commit}
        />
      ))}
      <Group gap="xs" align="flex-end">
        <Button
          variant="default"
          size="xs"
          onClick={() => commit([...tabs, { title: 'New tab', sections: [{ fields: [] }] }])}
        >
          Add a tab of fields
        </Button>
        <Select
          size="xs"
          label="Add a related tab"
          placeholder={missing.length ? 'Pick a collection' : 'All are shown'}
          data={missing.map((r) => ({ value: r, label: humanize(r) }))}
          value={null}
          disabled={missing.length === 0}
          onChange={(picked) => picked && commit([...tabs, { related: picked }])}
        />
      </Group>
      <Text size="xs" c="dimmed" data-testid="unplaced-fields">
        {hidden.length
          ? `Not on the page: ${hidden.map(humanize).join(', ')}.`
          : 'Every field is on the page.'}
      </Text>
      <MultiSelect
        label="Read-only when editing"
        description="Shown, but not changed in the edit form. Rights still decide who may write."
        data={options}
        value={readOnly}
        onChange={(next) => commit(tabs, next)}
        searchable
        clearable
      />
      <Button
        variant="subtle"
        size="xs"
        onClick={() => editor.change(clearRecordPage(editor.draft, name))}
      >
        Back to the default page
      </Button>
    </>
  );
}
