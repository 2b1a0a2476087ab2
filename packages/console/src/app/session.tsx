/**
 * The signed-in session: which workspace and team, the agent session token (from the agent's own
 * login flow, agent protocol §3), the agent client, and re-authentication when the token expires
 * (a dialog over the page, so nothing being typed is lost).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { AgentClient, type SessionUser } from '../protocol';
import type { Workspace } from './config';

const STORAGE_KEY = 'canopy.console.session';

export interface StoredSession {
  workspaceId: string;
  renderingId: number;
  token: string;
  user: SessionUser;
}

export const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function readStoredSession(): StoredSession | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as StoredSession) : undefined;
  } catch {
    return undefined;
  }
}

function store(session: StoredSession | undefined): void {
  if (session) localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else localStorage.removeItem(STORAGE_KEY);
}

function waitForCallback(popup: Window): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const timer = window.setInterval(() => {
      if (popup.closed) {
        window.clearInterval(timer);
        reject(new Error('The sign-in window was closed before you signed in.'));
        return;
      }
      let href: string;
      try {
        href = popup.location.href;
      } catch {
        return; // Still on another origin.
      }
      const url = new URL(href, window.location.href);
      if (url.origin !== window.location.origin) return;
      const params = url.searchParams;
      if ((params.has('code') || params.has('error')) && params.has('state')) {
        window.clearInterval(timer);
        resolve(Object.fromEntries(params));
      }
    }, 120);
  });
}

/**
 * Signs in through the agent (`POST /authentication`), the platform's sign-in page in a pop-up
 * (its callback page is on this origin), then `GET /authentication/callback`.
 */
export async function signIn(workspace: Workspace, renderingId: number): Promise<StoredSession> {
  const popup = window.open('', 'canopy-sign-in', 'popup,width=480,height=640');
  if (!popup) {
    throw new Error(
      'The browser blocked the sign-in window: allow pop-ups for this site and retry.',
    );
  }
  try {
    const client = new AgentClient({
      baseUrl: workspace.agentUrl,
      timezone,
      getToken: () => undefined,
    });
    let authorizationUrl: string;
    try {
      authorizationUrl = await client.startLogin(renderingId);
    } catch (error) {
      throw new Error(
        `The agent at ${workspace.agentUrl} did not start the sign-in: ${(error as Error).message}`,
      );
    }
    popup.location.href = authorizationUrl;
    const callback = await waitForCallback(popup);
    if (callback.error) {
      throw new Error(
        `The platform refused the sign-in: ${callback.error_description ?? callback.error}`,
      );
    }
    const { token, user } = await client.finishLogin(callback);
    return { workspaceId: workspace.id, renderingId, token, user };
  } finally {
    popup.close();
  }
}

interface SessionContextValue {
  workspace: Workspace;
  session: StoredSession;
  client: AgentClient;
  signOut(): void;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}

export function SessionProvider({
  workspace,
  initial,
  onSignOut,
  children,
}: {
  workspace: Workspace;
  initial: StoredSession;
  onSignOut(): void;
  children: ReactNode;
}) {
  const [session, setSession] = useState(initial);
  const sessionRef = useRef(initial);
  const [reauth, setReauth] = useState<{ resolve(ok: boolean): void } | undefined>();
  const [reauthError, setReauthError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const pending = useRef<Promise<boolean> | undefined>(undefined);

  const signOut = useCallback(() => {
    store(undefined);
    onSignOut();
  }, [onSignOut]);

  const client = useMemo(
    () =>
      new AgentClient({
        baseUrl: workspace.agentUrl,
        timezone,
        // The stored token wins: another tab may have signed in again meanwhile.
        getToken: () => {
          const stored = readStoredSession();
          return stored?.workspaceId === sessionRef.current.workspaceId &&
            stored.user.id === sessionRef.current.user.id
            ? stored.token
            : sessionRef.current.token;
        },
        onUnauthorized: () => {
          pending.current ??= new Promise<boolean>((resolve) => {
            setReauthError(undefined);
            setReauth({ resolve });
          }).finally(() => {
            pending.current = undefined;
          });
          return pending.current;
        },
      }),
    [workspace.agentUrl],
  );

  const renew = async () => {
    setBusy(true);
    setReauthError(undefined);
    try {
      const next = await signIn(workspace, sessionRef.current.renderingId);
      sessionRef.current = next;
      store(next);
      setSession(next);
      reauth?.resolve(true);
      setReauth(undefined);
    } catch (error) {
      setReauthError((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SessionContext.Provider value={{ workspace, session, client, signOut }}>
      {children}
      <Modal
        opened={reauth !== undefined}
        onClose={() => undefined}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        title="Your session has expired"
        centered
      >
        <Stack>
          <Text size="sm">
            Sign in again to continue. What you were doing stays on the page and is sent once you
            are back.
          </Text>
          {reauthError && (
            <Text c="red" size="sm" role="alert">
              {reauthError}
            </Text>
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                reauth?.resolve(false);
                setReauth(undefined);
                signOut();
              }}
            >
              Sign out
            </Button>
            <Button loading={busy} onClick={renew}>
              Sign in again
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SessionContext.Provider>
  );
}

export { store as storeSession };
