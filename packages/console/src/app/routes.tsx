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
import type { ComponentType, ReactNode } from 'react';
import { CollectionPage } from './pages/CollectionPage';
import { RecordFormPage } from './pages/RecordFormPage';
import { RecordPage } from './pages/RecordPage';

export interface FeatureRoute {
  /** Relative to `/:project/:environment/` (react-router syntax). */
  path: string;
  element: ReactNode;
  /** A sidebar entry linking to `path` (which must then have no parameter). */
  nav?: { label: string; icon: ComponentType<{ size?: number }> };
}

export const featureRoutes: FeatureRoute[] = [
  { path: 'data/:collection', element: <CollectionPage /> },
  { path: 'data/:collection/new', element: <RecordFormPage mode="create" /> },
  { path: 'data/:collection/:id', element: <RecordPage /> },
  { path: 'data/:collection/:id/edit', element: <RecordFormPage mode="edit" /> },
];
