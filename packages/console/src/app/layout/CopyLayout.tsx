/**
 * Layout mode, for project admins: publish another team's published layout for the team being
 * edited (`POST …/teams/{team}/layout/copy`), as its next version — undone like any publish.
 */
import { Button, Group, Select } from '@mantine/core';
import { useState } from 'react';
import { useWorkspace } from '../workspace';
import type { LayoutEditor } from './LayoutDrawer';

export function CopyLayout({
  target,
  teams,
  editor,
}: {
  target: string;
  teams: string[];
  editor: LayoutEditor;
}) {
  const workspace = useWorkspace();
  const [from, setFrom] = useState<string | null>(null);
  if (workspace.permissionLevel !== 'admin') return null;
  const others = teams.filter((team) => team !== target);
  if (others.length === 0) return null;
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Select
        size="xs"
        flex={1}
        label="Copy the layout of"
        placeholder="Another team"
        data={others}
        value={from}
        onChange={setFrom}
      />
      <Button
        size="xs"
        variant="default"
        disabled={!from}
        loading={editor.busy === 'copy'}
        onClick={() => from && void editor.copyFrom(from)}
      >
        Copy to {target}
      </Button>
    </Group>
  );
}
