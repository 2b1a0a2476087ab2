/**
 * Layout mode's panel on a collection's list (layout editors only): the columns of the team's
 * layout — shown, order, width, widget — edited as the editor's own draft and previewed live in
 * their Console, then published for the team, discarded, or the last publish undone.
 */
import { Alert, Button, Drawer, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { humanize, type SchemaCollection } from '../../protocol';
import { ErrorMessage } from '../components/ErrorMessage';
import { availableColumns } from '../components/columns';
import { ColumnLayoutRow } from './ColumnLayoutRow';
import {
  editedColumns,
  moveColumn,
  setColumns,
  setDisplayWidget,
  setWidth,
  toggleColumn,
  type TableColumn,
} from './layout-edit';
import { useTeamLayout } from './team-layout';
import { useEditableTeams } from './use-editable-teams';
import { useLayoutEditor } from './use-layout-editor';

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
  const team = useTeamLayout();
  const [target, setTarget] = useState(team.teamName);
  const teams = useEditableTeams(team.teamName);
  const editor = useLayoutEditor(target);
  const doc = editor.draft;
  const name = collection.name;
  const columns = editedColumns(doc, name, visible);
  const widgets = doc?.collections?.[name]?.fields ?? {};
  const shownNames = columns.map((column) => column.field);
  const fields = availableColumns(collection)
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
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size={380}
      title={`Layout of ${humanize(name)}`}
      withOverlay={false}
      lockScroll={false}
      closeButtonProps={{ 'aria-label': 'Close layout mode' }}
      data-testid="layout-panel"
    >
      <Stack gap="sm">
        <Select
          label="Team"
          data={teams}
          value={target}
          allowDeselect={false}
          onChange={(next) => next && setTarget(next)}
        />
        <Text size="sm" c="dimmed">
          Your changes are a draft only you see, until you publish them for {target}.
          {editor.published ? ` Published: version ${editor.published.version}.` : ''}
        </Text>
        {editor.error !== undefined && (
          <Alert color="red" title="The layout could not be saved" role="alert">
            <ErrorMessage error={editor.error} />
          </Alert>
        )}
        {editor.notice && (
          <Alert color="teal" role="status">
            {editor.notice}
          </Alert>
        )}
        <Group gap="xs">
          <Button
            onClick={() => void editor.publish()}
            loading={editor.busy === 'publish'}
            disabled={!doc || editor.busy === 'open'}
          >
            Publish
          </Button>
          <Button
            variant="default"
            onClick={() => void editor.discard()}
            loading={editor.busy === 'discard'}
          >
            Discard draft
          </Button>
          <Button
            variant="subtle"
            onClick={() => void editor.undo()}
            loading={editor.busy === 'undo'}
            disabled={!editor.canUndo}
          >
            Undo last publish
          </Button>
        </Group>
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
              onShow={(shown) => changeColumns(toggleColumn(columns, field.field, shown))}
              onMove={(by) => changeColumns(moveColumn(columns, index, by))}
              onWidth={(width) => changeColumns(setWidth(columns, field.field, width))}
              onWidget={(widget) => editor.change(setDisplayWidget(doc, name, field.field, widget))}
            />
          );
        })}
      </Stack>
    </Drawer>
  );
}
