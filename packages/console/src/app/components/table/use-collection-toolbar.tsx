/**
 * The table's toolbar (TableToolbar.tsx) as one memoized element: rebuilt only when what it shows
 * changes (the view, the search box, the selection, the columns, an export), not with each page of
 * rows.
 */
import { useMemo, type ReactNode } from 'react';
import {
  countLeaves,
  humanize,
  type AgentSchema,
  type SchemaCollection,
  type Selection,
} from '../../../protocol';
import type { ListSource } from '../../data';
import type { useSearchAsYouType } from '../use-search-as-you-type';
import type { BulkMode } from './bulk-change';
import { SearchBox } from './SearchBox';
import { TableToolbar } from './TableToolbar';
import { ToolbarActions, type ToolbarRights } from './ToolbarActions';
import type { useColumnPrefs } from './use-column-prefs';
import type { SetView, useTableView } from './use-table-view';
import { ViewControls } from './ViewControls';
import { collectionPath } from '../../data-paths';

export function useCollectionToolbar({
  phone,
  title,
  collection,
  schema,
  base,
  can,
  related,
  params,
  view,
  setView,
  searchBox,
  searching,
  selection,
  rights,
  prefs,
  exporting,
  exportCsv,
  askBulk,
  associate,
  bulkEdit,
  layoutButton,
  asOf,
}: {
  phone: boolean;
  title: ReactNode;
  collection: SchemaCollection;
  schema: AgentSchema;
  base: string;
  /** The rights' source: `rights` change with it. */
  can: unknown;
  related: ListSource['related'];
  params: URLSearchParams;
  view: ReturnType<typeof useTableView>['view'];
  setView: SetView;
  searchBox: ReturnType<typeof useSearchAsYouType>;
  searching: boolean;
  /** The selected records (selection.ts), with their count. */
  selection: Selection;
  rights: ToolbarRights;
  prefs: ReturnType<typeof useColumnPrefs>;
  exporting: string | undefined;
  exportCsv(): void;
  askBulk(mode: BulkMode): void;
  associate(): void;
  /** Opens the bulk edit (features/bulk-edit/); absent when it is not offered. */
  bulkEdit?: () => void;
  /** Layout mode's button (layout/LayoutPanel.tsx), for layout editors. */
  layoutButton?: ReactNode;
  /** The "As of" control (features/as-of/), when the agent records history; stable. */
  asOf?: ReactNode;
}): ReactNode {
  const name = humanize(collection.name).toLowerCase();
  return useMemo(
    () => (
      <TableToolbar
        phone={phone}
        title={title}
        active={countLeaves(view.filters) + (selection.count ?? 0)}
        search={
          <SearchBox
            name={name}
            searchable={collection.isSearchable !== false}
            searching={searching}
            box={searchBox}
            width={phone ? undefined : 220}
          />
        }
        view={
          <>
            <ViewControls
              collection={collection}
              schema={schema}
              view={view}
              setView={setView}
              saved={related === undefined ? { params, prefs } : undefined}
            />
            {asOf}
          </>
        }
        actions={
          <ToolbarActions
            collection={collection}
            selection={selection}
            related={related !== undefined}
            rights={rights}
            columns={prefs}
            exporting={exporting !== undefined}
            onExport={exportCsv}
            onAsk={askBulk}
            onAssociate={associate}
            onBulkEdit={bulkEdit}
            newUrl={collectionPath(base, collection.name, 'new')}
            layout={layoutButton}
          />
        }
      />
    ),
    // `params` stands for the view and `setView`.
    [
      params,
      phone,
      searchBox.text,
      searching,
      selection.allRecords,
      selection.ids.join(','),
      selection.count,
      exporting,
      prefs.visible,
      collection,
      schema,
      title,
      base,
      can,
      related,
      bulkEdit === undefined,
      asOf,
    ],
  );
}
