import {
  Alert,
  Anchor,
  Button,
  Center,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  Title,
  useComputedColorScheme,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { originLabel } from '../agent-sign-in';
import { workspacesOf, type Workspace } from '../config';
import {
  currentPlatformToken,
  fetchEnvironment,
  fetchWorkspaces,
  openSignInWindow,
  PlatformError,
  platformSignIn,
  storePlatformToken,
} from '../platform';
import { firstScreenPath, prefetchFirstScreen } from '../first-screen';
import { markTiming } from '../test-hooks';
import { onlyChoice } from '../only-choice';
import { signIn, storeSession, type StoredSession } from '../session';

/** The last environment and team chosen (a preference, not a credential). */
const LAST_CHOICE = 'canopy.console.lastChoice';

function lastChoice(): { workspace?: string; rendering?: string } {
  try {
    return JSON.parse(localStorage.getItem(LAST_CHOICE) ?? '{}') as {
      workspace?: string;
      rendering?: string;
    };
  } catch {
    return {};
  }
}

/**
 * Sign in to the platform (its sign-in page, in a pop-up), then choose project, environment and
 * team among those the platform lists for the user, and open it: the environment's agent signs
 * the user in through the platform again, without a second password.
 */
export function LoginPage({ onSignedIn }: { onSignedIn(session: StoredSession): void }) {
  const [signedIn, setSignedIn] = useState(() => currentPlatformToken(60_000) !== undefined);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const dark = useComputedColorScheme('light') === 'dark';
  const location = useLocation();
  const navigate = useNavigate();
  const me = useQuery({
    queryKey: ['me-workspaces'],
    queryFn: fetchWorkspaces,
    enabled: signedIn,
    staleTime: 0,
    retry: false,
  });
  const workspaces = me.data ? workspacesOf(me.data) : [];
  const last = lastChoice();
  const [workspaceId, setWorkspaceId] = useState<string | null>(null);
  const [renderingId, setRenderingId] = useState<string | null>(null);
  const chosenId =
    workspaceId ??
    (
      workspaces.find((w) => w.id === last.workspace && w.agentUrl) ??
      workspaces.find((w) => w.agentUrl) ??
      workspaces[0]
    )?.id ??
    null;
  const workspace = workspaces.find((w) => w.id === chosenId);
  const chosenRendering =
    renderingId ??
    (workspace?.renderings.find((r) => String(r.id) === last.rendering)
      ? last.rendering!
      : workspace?.renderings[0]
        ? String(workspace.renderings[0].id)
        : null);

  if (me.error instanceof PlatformError && me.error.status === 401 && signedIn) {
    storePlatformToken(undefined);
    setSignedIn(false);
  }

  const platformStep = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(undefined);
    let popup: Window;
    try {
      popup = openSignInWindow();
    } catch (caught) {
      setError((caught as Error).message);
      return;
    }
    setBusy(true);
    try {
      await platformSignIn(popup, { askPassword: true });
    } catch (caught) {
      setError((caught as Error).message);
      popup.close();
      setBusy(false);
      return;
    }
    // One project, environment and team: nothing to choose, open it in the same pop-up (the
    // chooser shows only if that fails, and says why).
    const mine = await queryClient
      .fetchQuery({ queryKey: ['me-workspaces'], queryFn: fetchWorkspaces, staleTime: 0 })
      .catch(() => undefined);
    const only = mine && onlyChoice(workspacesOf(mine));
    if (only) await enter(only.workspace, String(only.renderingId), popup);
    else {
      popup.close();
      setBusy(false);
    }
    setSignedIn(true);
  };

  const open = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!workspace || !chosenRendering) return;
    setError(undefined);
    let popup: Window;
    try {
      popup = openSignInWindow();
    } catch (caught) {
      setError((caught as Error).message);
      return;
    }
    setBusy(true);
    await enter(workspace, chosenRendering, popup);
  };

  /** Signs in to `workspace`'s agent with the team `chosenRendering`, in `popup`, and opens it. */
  const enter = async (workspace: Workspace, chosenRendering: string, popup: Window) => {
    // The environment's rights and schema load while the agent signs the user in.
    void queryClient.prefetchQuery({
      queryKey: ['me-environment', workspace.project, workspace.environment],
      queryFn: () => fetchEnvironment(workspace.project, workspace.environment),
    });
    try {
      const session = await signIn(workspace, Number(chosenRendering), popup);
      storeSession(session);
      markTiming('canopy:signed-in');
      void prefetchFirstScreen(queryClient, session);
      // From the home page, straight to the first collection (a deep link stays where it is).
      const first = location.pathname === '/' ? firstScreenPath(queryClient, session) : undefined;
      if (first) navigate(first, { replace: true });
      localStorage.setItem(
        LAST_CHOICE,
        JSON.stringify({ workspace: workspace.id, rendering: chosenRendering }),
      );
      onSignedIn(session);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const failure = error && (
    <Alert color="red" title="Sign-in failed" role="alert">
      {error}
    </Alert>
  );

  let body;
  if (!signedIn) {
    body = (
      <>
        {failure}
        <Button type="submit" loading={busy} fullWidth>
          Sign in
        </Button>
        <Text size="xs" c="dimmed">
          The platform's sign-in page opens in a small window; the console continues once you have
          signed in there.
        </Text>
      </>
    );
  } else if (me.isPending) {
    body = <Loader aria-label="Loading your projects" mx="auto" />;
  } else if (me.isError) {
    body = (
      <Alert color="red" title="Your projects could not be loaded">
        {me.error.message}
      </Alert>
    );
  } else if (workspaces.length === 0) {
    body = (
      <Alert color="yellow" title="No project yet">
        Your account is a member of no project. Ask an admin of your Canopy platform to add you to
        their project.
      </Alert>
    );
  } else {
    body = (
      <>
        <Text size="sm">
          Signed in as <b>{me.data.user.email}</b>
        </Text>
        <Select
          label="Project and environment"
          data={workspaces.map((w) => ({
            value: w.id,
            label: `${w.project} · ${w.environment}`,
          }))}
          value={chosenId}
          onChange={(value) => {
            setWorkspaceId(value);
            const next = workspaces.find((w) => w.id === value);
            setRenderingId(next?.renderings[0] ? String(next.renderings[0].id) : null);
          }}
          allowDeselect={false}
        />
        {workspace?.agentUrl && (
          <Text size="xs" c="dimmed" data-testid="agent-origin">
            Connects to the agent at <b>{originLabel(workspace.agentUrl)}</b>
          </Text>
        )}
        {workspace && !workspace.agentUrl && (
          <Alert color="yellow" title="No agent address">
            This environment has no API endpoint yet: an admin of the project sets it in the
            environment's settings.
          </Alert>
        )}
        <Select
          label="Team"
          description="Your team decides which records you see."
          data={(workspace?.renderings ?? []).map((r) => ({
            value: String(r.id),
            label: r.name,
          }))}
          value={chosenRendering}
          onChange={setRenderingId}
          allowDeselect={false}
          nothingFoundMessage="You belong to no team of this project"
        />
        {failure}
        <Button
          type="submit"
          loading={busy}
          disabled={!workspace?.agentUrl || !chosenRendering}
          fullWidth
        >
          Open
        </Button>
        <Anchor
          component="button"
          type="button"
          size="xs"
          onClick={() => {
            storePlatformToken(undefined);
            setSignedIn(false);
          }}
        >
          Not you? Sign in with another account
        </Anchor>
      </>
    );
  }

  return (
    <Center
      mih="100vh"
      p="md"
      style={{
        background: dark
          ? 'linear-gradient(135deg, #0b2e24 0%, var(--mantine-color-dark-8) 60%)'
          : 'linear-gradient(135deg, #e6fcf5 0%, #f8f9fa 60%)',
      }}
    >
      <Paper
        component="form"
        onSubmit={signedIn ? open : platformStep}
        shadow="md"
        p="xl"
        w={420}
        maw="100%"
        withBorder
      >
        <Stack>
          <div>
            <Title order={2}>Canopy Console</Title>
            <Text c="dimmed" size="sm">
              {signedIn
                ? 'Choose the environment and team to work in.'
                : 'Sign in to work on your data.'}
            </Text>
          </div>
          {body}
        </Stack>
      </Paper>
    </Center>
  );
}
