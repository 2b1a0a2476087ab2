import { Alert, Button, Center, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Workspace } from '../config';
import { signIn, storeSession, type StoredSession } from '../session';

const LAST_CHOICE = 'canopy.console.lastChoice';

/** Choose project, environment and team, then sign in on the platform. */
export function LoginPage({
  workspaces,
  onSignedIn,
}: {
  workspaces: Workspace[];
  onSignedIn(session: StoredSession): void;
}) {
  const last = (() => {
    try {
      return JSON.parse(localStorage.getItem(LAST_CHOICE) ?? '{}') as {
        workspace?: string;
        rendering?: string;
      };
    } catch {
      return {};
    }
  })();
  const [workspaceId, setWorkspaceId] = useState<string | null>(
    workspaces.find((w) => w.id === last.workspace)?.id ?? workspaces[0]?.id ?? null,
  );
  const workspace = workspaces.find((w) => w.id === workspaceId);
  const [renderingId, setRenderingId] = useState<string | null>(
    workspace?.renderings.find((r) => String(r.id) === last.rendering)
      ? last.rendering!
      : workspace?.renderings[0]
        ? String(workspace.renderings[0].id)
        : null,
  );
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!workspace || !renderingId) return;
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(workspace, Number(renderingId));
      storeSession(session);
      performance.mark('canopy:signed-in');
      localStorage.setItem(
        LAST_CHOICE,
        JSON.stringify({ workspace: workspace.id, rendering: renderingId }),
      );
      onSignedIn(session);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center
      mih="100vh"
      p="md"
      style={{ background: 'linear-gradient(135deg, #e6fcf5 0%, #f8f9fa 60%)' }}
    >
      <Paper component="form" onSubmit={submit} shadow="md" p="xl" w={420} maw="100%" withBorder>
        <Stack>
          <div>
            <Title order={2}>Canopy Console</Title>
            <Text c="dimmed" size="sm">
              Sign in to work on your data.
            </Text>
          </div>
          {workspaces.length === 0 ? (
            <Alert color="yellow" title="No environment is configured">
              This console has no workspace in its console.config.json. Ask the administrator of
              your Canopy platform to add your project's environments.
            </Alert>
          ) : (
            <>
              <Select
                label="Project and environment"
                data={workspaces.map((w) => ({
                  value: w.id,
                  label: `${w.project} · ${w.environment}`,
                }))}
                value={workspaceId}
                onChange={(value) => {
                  setWorkspaceId(value);
                  const next = workspaces.find((w) => w.id === value);
                  setRenderingId(next?.renderings[0] ? String(next.renderings[0].id) : null);
                }}
                allowDeselect={false}
              />
              <Select
                label="Team"
                description="Your team decides which records you see."
                data={(workspace?.renderings ?? []).map((r) => ({
                  value: String(r.id),
                  label: r.name,
                }))}
                value={renderingId}
                onChange={setRenderingId}
                allowDeselect={false}
                nothingFoundMessage="This environment has no team"
              />
              {error && (
                <Alert color="red" title="Sign-in failed" role="alert">
                  {error}
                </Alert>
              )}
              <Button type="submit" loading={busy} disabled={!workspace || !renderingId} fullWidth>
                Sign in
              </Button>
              <Text size="xs" c="dimmed">
                The platform's sign-in page opens in a small window; the console continues once you
                have signed in there.
              </Text>
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
