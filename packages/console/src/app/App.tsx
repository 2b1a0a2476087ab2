import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { loadConfig } from './config';
import { Shell } from './Shell';
import { LoginPage } from './pages/LoginPage';
import { CollectionPage } from './pages/CollectionPage';
import { RecordPage } from './pages/RecordPage';
import { RecordFormPage } from './pages/RecordFormPage';
import { HomeRedirect } from './pages/HomeRedirect';

import { NotesPage } from './features/notes/NotesPage';
import { ActivityPage } from './features/activity/ActivityPage';
import { readStoredSession, SessionProvider, type StoredSession } from './session';

// Charts (Recharts) are a chunk of their own, loaded with the dashboard.
const DashboardPage = lazy(() =>
  import('./features/insights/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);

/**
 * Routes: `/` signs in; `/:project/:environment/…` are the signed-in pages of a workspace.
 * Part two of the console (dashboards, activity, settings) adds routes next to `data`.
 */
export function App() {
  const config = useQuery({ queryKey: ['config'], queryFn: loadConfig, staleTime: Infinity });
  const [session, setSession] = useState<StoredSession | undefined>(readStoredSession);
  const navigate = useNavigate();
  const onSignOut = useCallback(() => {
    setSession(undefined);
    navigate('/');
  }, [navigate]);

  if (config.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading the console" />
      </Center>
    );
  }
  if (config.isError) {
    return (
      <Center h="100vh" p="md">
        <Alert color="red" title="The console could not load its configuration" maw={520}>
          {config.error.message}
        </Alert>
      </Center>
    );
  }
  const workspace = session && config.data.workspaces.find((w) => w.id === session.workspaceId);
  if (!session || !workspace) {
    return (
      <LoginPage
        workspaces={config.data.workspaces}
        onSignedIn={(next) => {
          setSession(next);
        }}
      />
    );
  }
  return (
    <SessionProvider
      key={`${session.workspaceId}:${session.user.id}`}
      workspace={workspace}
      initial={session}
      onSignOut={onSignOut}
    >
      <Routes>
        <Route element={<Shell />}>
          <Route path="/:project/:environment/data/:collection" element={<CollectionPage />} />
          <Route
            path="/:project/:environment/data/:collection/new"
            element={<RecordFormPage mode="create" />}
          />
          <Route path="/:project/:environment/data/:collection/:id" element={<RecordPage />} />
          <Route
            path="/:project/:environment/data/:collection/:id/edit"
            element={<RecordFormPage mode="edit" />}
          />
          <Route
            path="/:project/:environment/dashboard"
            element={
              <Suspense fallback={<Loader m="md" aria-label="Loading the dashboard" />}>
                <DashboardPage />
              </Suspense>
            }
          />
          <Route path="/:project/:environment/notes" element={<NotesPage />} />
          <Route path="/:project/:environment/activity" element={<ActivityPage />} />
          <Route path="*" element={<HomeRedirect />} />
        </Route>
        <Route path="/login" element={<Navigate to="/" replace />} />
      </Routes>
    </SessionProvider>
  );
}
