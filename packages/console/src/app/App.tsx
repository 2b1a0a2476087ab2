import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Shell } from './Shell';
import { HomeRedirect } from './pages/HomeRedirect';
import { PageLoader } from './components/States';
import { featureRoutes } from './routes';
import { storePlatformToken } from './platform';
import { readStoredSession, SessionProvider, storeSession, type StoredSession } from './session';
import { onSignOutElsewhere } from './tab-session';
import { TeamLayoutProvider } from './layout/team-layout';
import { WorkspaceProvider } from './workspace';
import { LiveProvider } from './features/live/LiveProvider';

/** The sign-in page: off a signed-in user's first screen, which is the one the budget counts. */
const LoginPage = lazy(() =>
  import('./pages/LoginPage').then((module) => ({ default: module.LoginPage })),
);

/**
 * `/` signs in (platform, then the environment's agent); `/:project/:environment/…` are the
 * signed-in pages of a workspace, listed in `routes.tsx` (one line per page, nav entry included).
 */
export function App() {
  const [session, setSession] = useState<StoredSession | undefined>(readStoredSession);
  const [workspace, setWorkspace] = useState(() => (session ? session.workspace : undefined));
  const [signOuts, setSignOuts] = useState(0);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onSignOut = useCallback(() => {
    setSession(undefined);
    setWorkspace(undefined);
    setSignOuts((count) => count + 1);
    queryClient.clear();
    navigate('/');
  }, [navigate, queryClient]);
  // Signing out in another tab signs out this one (even on its sign-in page, past the platform).
  useEffect(
    () =>
      onSignOutElsewhere(() => {
        storeSession(undefined);
        storePlatformToken(undefined);
        onSignOut();
      }),
    [onSignOut],
  );

  if (!session || !workspace) {
    return (
      <Suspense fallback={<PageLoader label="Loading the sign-in page" />}>
        <LoginPage
          key={signOuts}
          onSignedIn={(next) => {
            setSession(next);
            setWorkspace(next.workspace);
          }}
        />
      </Suspense>
    );
  }
  return (
    <SessionProvider
      key={`${session.workspaceId}:${session.user.id}`}
      workspace={workspace}
      initial={session}
      onSignOut={onSignOut}
    >
      <WorkspaceProvider
        project={workspace.project}
        environment={workspace.environment}
        renderingId={session.renderingId}
      >
        <LiveProvider>
          <TeamLayoutProvider>
            <Routes>
              <Route element={<Shell />}>
                {featureRoutes.map((route) => (
                  <Route
                    key={route.path}
                    path={`/:project/:environment/${route.path}`}
                    element={route.element}
                  />
                ))}
                <Route path="*" element={<HomeRedirect />} />
              </Route>
              <Route path="/login" element={<Navigate to="/" replace />} />
            </Routes>
          </TeamLayoutProvider>
        </LiveProvider>
      </WorkspaceProvider>
    </SessionProvider>
  );
}
