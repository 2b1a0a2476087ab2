/**
 * Layout mode's drawer, around what is being laid out (a list's columns, a record page, a form,
 * the sidebar): the team whose layout it is (an admin may pick any team of the project), the
 * draft's state, the platform's errors in the user's words, and publish, discard, undo.
 */
import { Alert, Button, Drawer, Group, Select, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ErrorMessage } from '../components/ErrorMessage';
import { CopyLayout } from './CopyLayout';
import { useTeamLayout } from './team-layout';
import { useEditableTeams } from './use-editable-teams';
import { useLayoutEditor } from './use-layout-editor';

export type LayoutEditor = ReturnType<typeof useLayoutEditor>;

export function LayoutDrawer({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose(): void;
  /** The editing part, given the editor of the chosen team's draft. */
  children(editor: LayoutEditor): ReactNode;
}) {
  const team = useTeamLayout();
  const [target, setTarget] = useState(team.teamName);
  const teams = useEditableTeams(team.teamName);
  const editor = useLayoutEditor(target);
  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size={400}
      title={title}
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
            disabled={!editor.draft || editor.busy === 'open'}
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
        <CopyLayout target={target} teams={teams} editor={editor} />
        {children(editor)}
      </Stack>
    </Drawer>
  );
}
