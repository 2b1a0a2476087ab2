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
import { PendingApprovalsBadge } from './features/actions/PendingApprovalsBadge';
import { CollectionPage } from './pages/CollectionPage';
import type { Workspace } from './workspace';

// The first screen (a collection's list) is in the main chunk; other pages load when
// first opened, each in its chunk (the dashboard's brings the charts: Recharts).
const DashboardPage = lazy(() =>
  import('./features/insights/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const ApprovalsPage = lazy(() =>
  import('./features/actions/ApprovalsPage').then((m) => ({ default: m.ApprovalsPage })),
);
const ActivityPage = lazy(() =>
  import('./features/activity/ActivityPage').then((m) => ({ default: m.ActivityPage })),
);
const NotesPage = lazy(() =>
  import('./features/notes/NotesPage').then((m) => ({ default: m.NotesPage })),
);
const SettingsPage = lazy(() =>
  import('./features/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })),
);
const RecordPage = lazy(() =>
  import('./pages/RecordPage').then((m) => ({ default: m.RecordPage })),
);
const ImportPage = lazy(() =>
  import('./features/import/ImportPage').then((m) => ({ default: m.ImportPage })),
);
const RecordFormPage = lazy(() =>
  import('./pages/RecordFormPage').then((m) => ({ default: m.RecordFormPage })),
);

/** A page loaded on first use, with a spinner meanwhile. */
const later = (page: ReactNode, label: string) => (
  <Suspense fallback={<Loader m="md" aria-label={`Loading ${label}`} />}>{page}</Suspense>
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
  { path: 'data/:collection/new', element: later(<RecordFormPage mode="create" />, 'the form') },
  { path: 'data/:collection/import', element: later(<ImportPage />, 'the import') },
  { path: 'data/:collection/:id', element: later(<RecordPage />, 'the record') },
  { path: 'data/:collection/:id/edit', element: later(<RecordFormPage mode="edit" />, 'the form') },
  {
    path: 'approvals',
    element: later(<ApprovalsPage />, 'the approvals'),
    nav: { label: 'Approvals', icon: IconChecklist, badge: PendingApprovalsBadge },
  },
  {
    path: 'dashboard',
    element: later(<DashboardPage />, 'the dashboard'),
    nav: { label: 'Dashboard', icon: IconChartBar },
  },
  {
    path: 'notes',
    element: later(<NotesPage />, 'the notes'),
    nav: { label: 'Notes', icon: IconNotes },
  },
  {
    path: 'activity',
    element: later(<ActivityPage />, 'the activity'),
    nav: { label: 'Activity', icon: IconActivity },
  },
  {
    path: 'settings',
    element: later(<SettingsPage />, 'the settings'),
    nav: {
      label: 'Settings',
      icon: IconSettings,
      visible: (workspace) => workspace.permissionLevel === 'admin',
    },
  },
  { path: 'settings/:tab', element: later(<SettingsPage />, 'the settings') },
];
