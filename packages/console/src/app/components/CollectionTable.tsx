/**
 * A collection's records as a table: columns from the schema (chosen, ordered and kept per user),
 * sort, pagination with the count, page size, search with highlighting, segments, the filter
 * builder, selection (of the page, or of every record of the view but some) with bulk delete (or
 * dissociate on a related tab), cells edited in place, CSV export. The view lives in the URL (with
 * a prefix on related tabs) so it can be shared. The parts live in `table/`: the view
 * (use-table-view.ts), the selection (use-table-selection.ts), the column model, inline editing
 * (EditableCell.tsx), the toolbar, the bulk actions, the export, the pager; the row keyboard in
 * use-row-keys.ts.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  AgentError,
  clickedSort,
  countLeaves,
  humanize,
  intersect,
  listErrorNotice,
  treeFromWire,
  type SchemaCollection,
  type SchemaField,
} from '../../protocol';
import { rememberDenied, useCan, useCount, useDataBase, useList, useSchema } from '../data';
import type { ListSource } from '../data';
import { useSession } from '../session';
import { TEST_HOOKS } from '../test-hooks';
import { ErrorMessage } from './ErrorMessage';
import { tableListParams } from './columns';
import { useRowKeys } from './use-row-keys';
import { useSearchAsYouType } from './use-search-as-you-type';
import { useCellColumns } from './table/cell-columns';
import { useOpenRecord } from './table/use-open-record';
import { useScrollTopOnView } from './table/use-scroll-top';
import { Pager } from './table/Pager';
import { pageRange, rangeText } from './table/paging';
import { SelectAllBanner } from './table/SelectAllBanner';
import { TableHead } from './table/TableHead';
import { useIsPhone } from './table/TableToolbar';
import { useCollectionToolbar } from './table/use-collection-toolbar';
import { useBulkChange } from './table/use-bulk-change';
import { useColumnPrefs } from './table/use-column-prefs';
import { useCsvExport } from './table/use-csv-export';
import { useProgressiveRows } from './table/use-progressive-rows';
import { useRenderMeasure } from './table/use-render-measure';
import { useTableSelection } from './table/use-table-selection';
import { useInlineSave } from './table/use-inline-save';
import { useAgentListParams, useTeamSegments } from './table/use-saved-views';
import { useTableLayout } from './table/use-table-layout';
import { useTableView } from './table/use-table-view';
import { LayoutButton } from '../layout/LayoutButton';
import { useRowColours } from '../layout/use-row-colours';
import { RecordsFrame } from './table/RecordsFrame';
import { LazyBulkEditDialog } from '../features/bulk-edit/LazyBulkEditDialog';
import { useBulkEdit } from '../features/bulk-edit/use-bulk-edit';
import { useAsOf } from '../features/as-of/use-as-of';

export { readListContext, saveListContext, type ListContext } from './table/list-context';

// The dialogs load when first opened: the first screen does without them (and Mantine's modal).
const BulkConfirmModal = lazy(() =>
  import('./table/BulkConfirmModal').then((module) => ({ default: module.BulkConfirmModal })),
);
const AssociateModal = lazy(() =>
  import('./table/AssociateModal').then((module) => ({ default: module.AssociateModal })),
);

/** Selection is off while a past moment is shown. */
const ignoreToggle = () => undefined;

export interface CollectionTableProps {
  collection: SchemaCollection;
  source: ListSource;
  /** URL parameter prefix of this table's view (related tabs use one). */
  prefix?: string;
  /** The relation this table shows, to dissociate/associate from the parent record. */
  relation?: SchemaField;
  title?: ReactNode;
  /** The segment the list opens on (the team's layout, layout/first-segment.tsx). */
  firstSegment?: string;
}

export function CollectionTable({
  collection,
  source,
  prefix = '',
  relation,
  title,
  firstSegment,
}: CollectionTableProps) {
  const { workspace, session, client } = useSession();
  const schema = useSchema().data!;
  const can = useCan();
  const base = useDataBase();
  const queryClient = useQueryClient();
  const phone = useIsPhone();
  const related = source.related;
  const layout = useTableLayout(collection);
  // Page size, sort, search and filter outlive leaving the list (use-list-memory.ts).
  const { params, view, setView } = useTableView({
    workspace: workspace.id,
    user: session.user.id,
    collection: collection.name,
    prefix,
    remember: prefix === '' && !related,
    defaults: { sort: layout.applied.sort, size: layout.applied.pageSize, segment: firstSegment },
  });
  const prefs = useColumnPrefs(workspace.id, session.user.id, collection, layout.prefs);
  // Searched as it is typed; each search replaces the previous one in the history.
  const searchBox = useSearchAsYouType(view.search, (search) => setView({ search }, true, true));
  const [associating, setAssociating] = useState(false);

  const schemaSegments = useMemo(
    () => (collection.segments ?? []).map((segment) => segment.name),
    [collection.segments],
  );
  // A team's Console segment is sent as its filter to an agent that does not apply such segments.
  const answerable = useAgentListParams(
    collection.name,
    schemaSegments,
    tableListParams(schema, collection, view, prefs.visible),
  );
  const listParams = answerable.params;
  const list = useList(source, listParams, answerable.ready);
  const count = useCount(source, listParams, answerable.ready);
  const rows = list.data ?? [];
  const searching = searchBox.waiting || (list.isFetching && view.search !== '');
  const name = humanize(collection.name).toLowerCase();
  const picked = useTableSelection({
    rows,
    page: list.data,
    view,
    related,
    total: count.data,
    name,
  });
  const { selected, toggle, setAll, clear, bulk: bulkSelection, onPage: selection } = picked;
  const error = list.error ?? count.error;
  useEffect(() => {
    if (error instanceof AgentError && error.status === 403)
      rememberDenied(collection.name, 'browseEnabled');
  }, [error, collection.name]);

  const { mountedCount, allMounted } = useProgressiveRows(list.data, rows.length);
  const tableRef = useRef<HTMLTableElement>(null);
  useRenderMeasure(list.data, collection.name, allMounted, tableRef);
  const frameRef = useScrollTopOnView(view);
  const rowColour = useRowColours(layout.applied.rowColours);

  const saveCell = useInlineSave(client, collection.name);
  const cellColumns = useCellColumns({
    collection,
    visible: prefs.visible,
    schema,
    base,
    search: view.search || undefined,
    canEdit: can(collection.name, 'editEnabled'),
    save: saveCell,
    widgets: layout.widgets,
  });
  // A past moment (`asOf=`, features/as-of/): today's rows with their values then, read-only.
  const asOf = useAsOf({
    collection: collection.name,
    name,
    prefix,
    enabled: !related,
    rows,
    columns: cellColumns,
  });
  useEffect(() => {
    if (asOf.active) clear();
  }, [asOf.active]);
  const pick = asOf.active ? ignoreToggle : toggle;
  const open = useOpenRecord({ collection: collection.name, rows, params, base });
  const rowKeys = useRowKeys({
    count: rows.length,
    page: list.data,
    onOpen: (index) => rows[index] && open(rows[index]),
    onSelect: (index) => {
      const id = rows[index]?.id;
      if (id !== undefined) pick(id, !selected.has(id));
    },
  });

  const total = count.data;
  const range = pageRange(view, rows.length, total);
  const filterCount = countLeaves(view.filters);
  const rights = {
    canDelete: can(collection.name, 'deleteEnabled'),
    canExport: can(collection.name, 'exportEnabled'),
    canAdd: can(collection.name, 'addEnabled') && !collection.isReadOnly,
    canEditRelation: related ? can(collection.name, 'editEnabled') : false,
  };
  const refetch = () =>
    queryClient
      .invalidateQueries({ queryKey: ['list'] })
      .then(() => queryClient.invalidateQueries({ queryKey: ['count'] }));
  const bulk = useBulkChange({
    client,
    collection: collection.name,
    related,
    selection: bulkSelection,
    count: bulkSelection.count ?? 0,
    onDone: () => {
      clear();
      return refetch();
    },
  });
  const bulkEdit = useBulkEdit({
    collection,
    selection: bulkSelection,
    onDone: () => {
      clear();
      return refetch();
    },
  });
  const canBulkEdit = !related && !collection.isReadOnly && can(collection.name, 'editEnabled');
  const { exporting, exportCsv } = useCsvExport({
    client,
    schema,
    collection,
    visible: prefs.visible,
    listParams,
    related,
  });
  // The list's segment when the team built it in the Console (not one of the schema's): an agent
  // that does not apply such segments refuses it, and its filter is offered instead.
  const schemaSegment = (collection.segments ?? []).some((s) => s.name === view.segment);
  const teamSegments = useTeamSegments(
    collection.name,
    !related && view.segment !== undefined && !schemaSegment,
  );
  const consoleSegment = schemaSegment
    ? undefined
    : teamSegments.data?.find((segment) => segment.name === view.segment);
  const notice = error
    ? listErrorNotice(error, { consoleSegment: consoleSegment?.name })
    : undefined;
  const narrowed = Boolean(view.search || filterCount || view.segment);
  const emptyView = {
    text: `No ${name} ${narrowed ? 'match this view' : 'yet'}`,
    onClear: narrowed
      ? () => setView({ search: '', filters: undefined, segment: undefined })
      : undefined,
  };

  // Built only when what they show changes: a new page of rows re-renders the rows, the range
  // and the select-all box, not the toolbar, the column headers or the pager.
  const toolbar = useCollectionToolbar({
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
    selection: bulkSelection,
    rights,
    prefs,
    exporting,
    exportCsv,
    askBulk: bulk.ask,
    associate: () => setAssociating(true),
    bulkEdit: canBulkEdit && !asOf.active ? bulkEdit.open : undefined,
    asOf: asOf.control,
    layoutButton: related ? null : <LayoutButton collection={collection} visible={prefs.visible} />,
  });
  const columnIds = useMemo(() => cellColumns.map((column) => column.id), [cellColumns]);
  const thead = useMemo(
    () => (
      <TableHead
        collection={collection}
        columns={columnIds}
        sort={view.sort}
        selection={selection}
        onSelectAll={setAll}
        onSort={(column) => setView({ sort: clickedSort(collection, view.sort, column) }, false)}
        widths={layout.applied.widths}
      />
    ),
    [collection, columnIds, view.sort, selection, params, layout.applied.widths],
  );
  const pager = useMemo(
    () => (
      <Pager
        page={view.page}
        size={view.size}
        pageCount={range.pageCount}
        full={rows.length >= view.size}
        onPage={(page) => setView({ page }, false)}
        onSize={(size) => setView({ size })}
      />
    ),
    [params, view.size, view.page, range.pageCount, rows.length],
  );

  return (
    <Stack gap="sm">
      {toolbar}
      {notice && (
        <Alert color={notice.color} title={notice.title} role="alert">
          <ErrorMessage error={notice} />
          {notice.consoleSegment && consoleSegment && (
            <Button
              mt="xs"
              size="xs"
              variant="light"
              onClick={() =>
                setView({
                  segment: undefined,
                  filters: intersect(view.filters, treeFromWire(consoleSegment.filter)),
                })
              }
            >
              Use its filter
            </Button>
          )}
        </Alert>
      )}
      {asOf.banner}
      <SelectAllBanner banner={picked.banner} onSelectAll={picked.selectAll} onClear={clear} />
      <RecordsFrame
        frameRef={frameRef}
        tableRef={tableRef}
        label={`${humanize(collection.name)} records`}
        tableProps={{
          'aria-busy': list.isFetching,
          'aria-rowcount': typeof total === 'number' ? total + 1 : undefined,
          style: { opacity: list.isPlaceholderData ? 0.6 : 1 },
          // What the browser suite waits on, in its build only (test-hooks.ts).
          ...(TEST_HOOKS && {
            'data-view': params.toString(),
            'data-loaded':
              !list.isPlaceholderData && !list.isFetching && !count.isFetching && allMounted,
          }),
          'data-as-of': asOf.active || undefined,
        }}
        head={thead}
        spacing={layout.spacing}
        rowColour={rowColour}
        pending={list.isPending}
        rows={allMounted ? rows : rows.slice(0, mountedCount)}
        firstIndex={range.first}
        columns={asOf.columns}
        selected={selected}
        rowKeys={rowKeys}
        onToggle={pick}
        onOpen={open}
        empty={!list.isPending && !error && rows.length === 0 ? emptyView : undefined}
      />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="range">
          {rangeText(range, rows.length, total, count.isPending)}
          {exporting ? ` · exporting ${exporting}` : ''}
        </Text>
        {pager}
      </Group>
      {bulk.confirm && (
        <Suspense>
          <BulkConfirmModal
            mode={bulk.confirm}
            count={bulkSelection.count ?? 0}
            onCancel={bulk.cancel}
            onConfirm={(mode) => void bulk.run(mode)}
          />
        </Suspense>
      )}
      <LazyBulkEditDialog
        {...bulkEdit.dialog}
        collection={collection}
        selected={bulkSelection.count ?? 0}
      />
      {related && relation && associating && (
        <Suspense>
          <AssociateModal
            opened
            onClose={() => setAssociating(false)}
            client={client}
            collection={collection}
            related={related}
            onDone={refetch}
          />
        </Suspense>
      )}
    </Stack>
  );
}
