/**
 * Layout mode's panel on a collection's list (layout editors only): the table's defaults and row
 * colours (TableSettings.tsx) and the columns of the team's layout — shown, order, width, widget —
 * edited as the editor's own draft and previewed live in
 * their Console, then published for the team, discarded, or the last publish undone.
 */
import { humanize, isToMany, type SchemaCollection } from '../../protocol';
import { availableColumns, countableRelations } from '../components/columns';
import { ColumnLayoutRow } from './ColumnLayoutRow';
import {
  editedColumns,
  moveColumn,
  setColumns,
  setDisplayWidget,
  setWidth,
  startingWidget,
  toggleColumn,
  type TableColumn,
} from './layout-edit';
import { LayoutDrawer, type LayoutEditor } from './LayoutDrawer';
import { TableSettings } from './TableSettings';

/** The panel itself (loaded with the first click on "Layout", LayoutButton.tsx). */
export default function LayoutPanel({
  collection,
  visible,
  onClose,
}: {
  collection: SchemaCollection;
  visible: string[];
  onClose(): void;
}) {
  const name = collection.name;
  return (
    <LayoutDrawer title={`Layout of ${humanize(name)}`} onClose={onClose}>
      {(editor) => <ColumnsEditor editor={editor} collection={collection} visible={visible} />}
    </LayoutDrawer>
  );
}

function ColumnsEditor({
  editor,
  collection,
  visible,
}: {
  editor: LayoutEditor;
  collection: SchemaCollection;
  visible: string[];
}) {
  const doc = editor.draft;
  const name = collection.name;
  const columns = editedColumns(doc, name, visible);
  const widgets = doc?.collections?.[name]?.fields ?? {};
  const shownNames = columns.map((column) => column.field);
  // To-many relations are columns only as a count (the `has-many-count` widget), hidden until
  // shown.
  const fields = [...availableColumns(collection), ...countableRelations(collection)]
    .map((field) => collection.fields.find((candidate) => candidate.field === field)!)
    .sort((a, b) => {
      const at = (field: string) => {
        const index = shownNames.indexOf(field);
        return index < 0 ? shownNames.length : index;
      };
      return at(a.field) - at(b.field);
    });
  const changeColumns = (next: TableColumn[]) => editor.change(setColumns(doc, name, next));

  return (
    <>
      <TableSettings editor={editor} collection={collection} />
      {fields.map((field) => {
        const index = shownNames.indexOf(field.field);
        return (
          <ColumnLayoutRow
            key={field.field}
            field={field}
            shown={index >= 0}
            width={columns[index]?.width}
            widget={widgets[field.field]?.display}
            first={index === 0}
            last={index === columns.length - 1}
            onShow={(shown) => {
              const next = setColumns(doc, name, toggleColumn(columns, field.field, shown));
              // A to-many relation is a column only with its count widget.
              const counted =
                shown &&
                isToMany(field) &&
                widgets[field.field]?.display?.type !== 'has-many-count';
              editor.change(
                counted
                  ? setDisplayWidget(next, name, field.field, startingWidget('has-many-count'))
                  : next,
              );
            }}
            onMove={(by) => changeColumns(moveColumn(columns, index, by))}
            onWidth={(width) => changeColumns(setWidth(columns, field.field, width))}
            onWidget={(widget) => editor.change(setDisplayWidget(doc, name, field.field, widget))}
          />
        );
      })}
    </>
  );
}
