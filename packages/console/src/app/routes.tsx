/**
 * The signed-in pages. To add a feature, add ONE entry here: its path (under
 * `/:project/:environment/`) and element, and `nav` to list it in the sidebar under "Workspace"
 * (the data collections are listed from the schema). Pages read `useWorkspace()` for the current
 * environment, team and rights, and `useSession()` for the agent client.
 *
 * ```tsx
 * { path: 'insights', element: <InsightsPage />, nav: { label: 'Dashboards', icon: IconChartBar } },
 * ```
 */
import { Loader } from '@mantine/core';
import {
  IconActivity,
  IconChartBar,
  IconChecklist,
  IconNotes,
  IconSettings,
} from '@tabler/icons-react';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { ApprovalsPage } from './features/actions/ApprovalsPage';
import { PendingApprovalsBadge } from './features/actions/PendingApprovalsBadge';
import { ActivityPage } from './features/activity/ActivityPage';
import { NotesPage } from './features/notes/NotesPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { CollectionPage } from './pages/CollectionPage';
import { RecordFormPage } from './pages/RecordFormPage';
import { RecordPage } from './pages/RecordPage';
import type { Workspace } from './workspace';

// Charts (Recharts) are a chunk of their own, loaded with the dashboard.
const DashboardPage = lazy(() =>
  import('./features/insights/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);

export interface FeatureRoute {
  /** Relative to `/:project/:environment/` (react-router syntax). */
  path: string;
  element: ReactNode;
  /** A sidebar entry linking to `path` (which must then have no parameter). */
  nav?: {
    label: string;
    icon: ComponentType<{ size?: number }>;
    /** Whether the signed-in user sees the entry (everyone when absent). */
    visible?(workspace: Workspace): boolean;
    /** Drawn at the end of the entry (a count, say). */
    badge?: ComponentType;
  };
}

export const featureRoutes: FeatureRoute[] = [
  { path: 'data/:collection', element: <CollectionPage /> },
  { path: 'data/:collection/new', element: <RecordFormPage mode="create" /> },
  { path: 'data/:collection/:id', element: <RecordPage /> },
  { path: 'data/:collection/:id/edit', element: <RecordFormPage mode="edit" /> },
  {
    path: 'approvals',
    element: <ApprovalsPage />,
    nav: { label: 'Approvals', icon: IconChecklist, badge: PendingApprovalsBadge },
  },
  {
    path: 'dashboard',
    element: (
      <Suspense fallback={<Loader m="md" aria-label="Loading the dashboard" />}>
        <DashboardPage />
      </Suspense>
    ),
    nav: { label: 'Dashboard', icon: IconChartBar },
  },
  { path: 'notes', element: <NotesPage />, nav: { label: 'Notes', icon: IconNotes } },
  { path: 'activity', element: <ActivityPage />, nav: { label: 'Activity', icon: IconActivity } },
  {
    path: 'settings',
    element: <SettingsPage />,
    nav: {
      label: 'Settings',
      icon: IconSettings,
      visible: (workspace) => workspace.permissionLevel === 'admin',
    },
  },
  { path: 'settings/:tab', element: <SettingsPage /> },
];
