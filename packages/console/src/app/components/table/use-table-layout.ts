/**
 * What the team's layout (layout/team-layout.tsx) asks of a collection's table: its columns,
 * widths, default sort and page size, density, and the fields' display widgets.
 */
import { useMemo } from 'react';
import type { SchemaCollection } from '../../../protocol';
import {
  applyTable,
  collectionLayout,
  densitySpacing,
  displayWidgets,
} from '../../layout/apply-layout';
import { useTeamLayout } from '../../layout/team-layout';
import { availableColumns } from '../columns';

export function useTableLayout(collection: SchemaCollection) {
  const team = useTeamLayout();
  const own = collectionLayout(team.layout, collection.name);
  const previewing = team.preview !== null;
  return useMemo(() => {
    const widgets = displayWidgets(own);
    const applied = applyTable(own?.table, availableColumns(collection, widgets));
    return {
      applied,
      widgets,
      spacing: densitySpacing(applied.density),
      prefs: { columns: applied.columns, previewing },
    };
  }, [own, collection, previewing]);
}
