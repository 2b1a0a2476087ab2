/**
 * The signed-in session: which workspace and team, the agent session token (from the agent's own
 * login flow, agent protocol §3), the agent client, and re-authentication when the token expires
 * (a dialog over the page, so nothing being typed is lost).
 */
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { AgentClient, type SessionUser } from '../protocol';
import { trustedAuthorizationUrl } from './agent-sign-in';
import type { Workspace } from './config';
import {
  currentPlatformToken,
  onPlatformUnauthorized,
  openSignInWindow,
  platformSignIn,
  readTabStorage,
  revokeAgentSessions,
  storePlatformToken,
  waitForCallback,
  writeTabStorage,
} from './platform';
import { SESSION_KEY, signOutEverywhere } from './tab-session';

// The expired session's dialog is not on the first screen, but it is fetched soon after sign-in
// (SessionProvider): a session expires after hours, by which time a new deployment may have
// replaced the Console's files, or the network may be gone, and the dialog must still open.
const loadReauthModal = () => import('./ReauthModal');
const ReauthModal = lazy(() =>
  loadReauthModal().then((module) => ({ default: module.ReauthModal })),
);
const REAUTH_PREFETCH_MS = 2000;

export interface StoredSession {
  workspaceId: string;
  /** The environment signed in to, as `/v1/me/workspaces` listed it. */
  workspace: Workspace;
  renderingId: number;
  token: string;
  user: SessionUser;
}

export const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The agent session of this tab: in memory, mirrored to `sessionStorage` so a reload keeps it,
 * and handed to a new tab that asks (tab-session.ts). Never `localStorage` (see the README,
 * "Where tokens are kept").
 */
let current: StoredSession | undefined;

export function readStoredSession(): StoredSession | undefined {
  // An expired agent token is kept: the first 401 opens the sign-in dialog over the page.
  current ??= readTabStorage<StoredSession>(SESSION_KEY);
  return current;
}

function store(session: StoredSession | undefined): void {
  current = session;
  writeTabStorage(SESSION_KEY, session);
}

/**
 * Signs in to the workspace's agent in `popup`: `POST /authentication` on the agent, the
 * platform's sign-in page (passed without a form when the browser is signed in to the platform
 * already, as after the console's own sign-in), then `GET /authentication/callback`. The
 * platform sign-in comes first when the console's platform token is missing or about to expire.
 */
export async function signIn(
  workspace: Workspace,
  renderingId: number,
  popup: Window,
): Promise<StoredSession> {
  try {
    if (!currentPlatformToken(60_000)) await platformSignIn(popup);
    if (!workspace.agentUrl) {
      throw new Error(
        `${workspace.project} / ${workspace.environment} has no API endpoint yet: an admin sets it in the environment's settings.`,
      );
    }
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
    // Only the platform's own sign-in page, for the agent's own client (agent-sign-in.ts).
    popup.location.href = trustedAuthorizationUrl(
      authorizationUrl,
      workspace.agentUrl,
      window.location.origin,
    );
    const callback = await waitForCallback(popup);
    if (callback.error) {
      throw new Error(
        `The platform refused the sign-in: ${callback.error_description ?? callback.error}`,
      );
    }
    const { token, user } = await client.finishLogin(callback);
    return { workspaceId: workspace.id, workspace, renderingId, token, user };
  } finally {
    popup.close();
  }
}

interface SessionContextValue {
  workspace: Workspace;
  session: StoredSession;
  client: AgentClient;
  signOut(): void;
  /**
   * Leaves this environment and team for the chooser, still signed in to the platform (the next
   * agent sign-in passes without a password).
   */
  switchWorkspace(): void;
  /** Asks the user to sign in again (the dialog); resolves whether they did. */
  requestReauth(): Promise<boolean>;
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

  useEffect(() => {
    // A failure here is not the user's concern: the dialog tries again when it is needed.
    const timer = setTimeout(
      () => void loadReauthModal().catch(() => undefined),
      REAUTH_PREFETCH_MS,
    );
    return () => clearTimeout(timer);
  }, []);

  const signOut = useCallback(() => {
    // Before the platform token is dropped: the agents refuse this user's session tokens.
    void revokeAgentSessions();
    store(undefined);
    storePlatformToken(undefined);
    signOutEverywhere();
    onSignOut();
  }, [onSignOut]);

  const switchWorkspace = useCallback(() => {
    store(undefined);
    onSignOut();
  }, [onSignOut]);

  const requestReauth = useCallback(() => {
    pending.current ??= new Promise<boolean>((resolve) => {
      setReauthError(undefined);
      setReauth({ resolve });
    }).finally(() => {
      pending.current = undefined;
    });
    return pending.current;
  }, []);

  // The platform's session expiring asks for the same sign-in as the agent's (platform.ts).
  useLayoutEffect(() => onPlatformUnauthorized(requestReauth), [requestReauth]);

  const client = useMemo(
    () =>
      new AgentClient({
        baseUrl: workspace.agentUrl ?? '',
        timezone,
        // This tab's stored token wins over the one in memory: the same token, unless storage
        // was changed behind the console's back (the browser suite expires it that way).
        getToken: () => {
          const stored = readTabStorage<StoredSession>(SESSION_KEY);
          return stored?.workspaceId === sessionRef.current.workspaceId &&
            stored.user.id === sessionRef.current.user.id
            ? stored.token
            : sessionRef.current.token;
        },
        onUnauthorized: requestReauth,
      }),
    [workspace.agentUrl, requestReauth],
  );

  const renew = async () => {
    setReauthError(undefined);
    let popup: Window;
    try {
      popup = openSignInWindow();
    } catch (error) {
      setReauthError((error as Error).message);
      return;
    }
    setBusy(true);
    try {
      const next = await signIn(workspace, sessionRef.current.renderingId, popup);
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
    <SessionContext.Provider
      value={{ workspace, session, client, signOut, switchWorkspace, requestReauth }}
    >
      {children}
      {reauth && (
        <Suspense>
          <ReauthModal
            error={reauthError}
            busy={busy}
            onSignOut={() => {
              reauth.resolve(false);
              setReauth(undefined);
              signOut();
            }}
            onSignIn={renew}
          />
        </Suspense>
      )}
    </SessionContext.Provider>
  );
}

export { store as storeSession };
