/**
 * A collection's records as a table: columns from the schema (chosen, ordered and kept per user),
 * sort, pagination with the count, page size, search with highlighting, segments, the filter
 * builder, selection with bulk delete (or dissociate on a related tab), CSV export. The view lives
 * in the URL (with a prefix on related tabs) so it can be shared.
 */
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Pagination,
  Paper,
  Popover,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowsSort,
  IconChevronDown,
  IconChevronUp,
  IconDownload,
  IconFilter,
  IconLink,
  IconLock,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUnlink,
} from '@tabler/icons-react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  memo,
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  AgentError,
  clickedSort,
  countLeaves,
  headerSort,
  humanize,
  isRelation,
  isToOne,
  labelField,
  listErrorNotice,
  PAGE_SIZES,
  readView,
  targetCollection,
  writeView,
  type AgentRecord,
  type SchemaCollection,
  type SchemaField,
  type ViewState,
} from '../../protocol';
import {
  collectionOf,
  receivedAt,
  relationProjection,
  rememberDenied,
  useCan,
  useCount,
  useDataBase,
  useList,
  useSchema,
  type ListSource,
} from '../data';
import { useSession } from '../session';
import { asGroup, filterableFields } from './filter-fields';

// The builder and its inputs load when the filter is first opened: the first screen does without.
const FilterBuilder = lazy(() =>
  import('./FilterBuilder').then((module) => ({ default: module.FilterBuilder })),
);
import { innerPopupOpen } from './inner-popup';
import { ActionsMenu } from '../features/actions/ActionsMenu';
import { ErrorMessage } from './ErrorMessage';
import { ColumnChooser } from './ColumnChooser';
import { CellRelationLink, CellValue } from './Value';
import { RecordPicker } from './RecordPicker';
import { downloadWorker, streamDownload } from '../download';
import { afterNextPaint } from '../after-paint';
import {
  availableColumns,
  columnsKey,
  defaultColumns,
  readColumns,
  tableListParams,
} from './columns';
import { useListMemory } from './use-list-memory';
import { useSearchAsYouType } from './use-search-as-you-type';
import { useFilterDraft } from './filter-draft';
import { useRowKeys } from './use-row-keys';
import { sortRefusal } from './sortability';

/** How each export of this page went (`stream` or `memory`): the browser suite reads it. */
const exportModes: string[] = ((
  window as unknown as { __canopyExports?: string[] }
).__canopyExports ??= []);

const countFormat = new Intl.NumberFormat();

/** One page's render time (see the measure in `CollectionTable`); the browser suite reads them. */
interface RenderMeasure {
  collection: string;
  rows: number;
  ms: number;
  queuedMs: number;
  renderMs: number;
  allRowsMs?: number;
}

declare global {
  interface Window {
    __canopyRenders?: RenderMeasure[];
  }
}

/** Rows mounted in a new page's first frame: a screenful, at 32 px or more per row. */
function firstRows(): number {
  return Math.max(20, Math.ceil(window.innerHeight / 32));
}

/** Rows mounted per task after the first frame. */
const LATER_ROWS = 40;

/** A column of the table body: how a record's cell renders. */
interface CellColumn {
  id: string;
  render(record: AgentRecord): ReactNode;
}

/**
 * One record's row, memoized: selecting a row or a new count re-renders that row or nothing, and
 * its cells are plain `<td>`s (table.css) around light cell values.
 */
const RecordRow = memo(function RecordRow({
  record,
  rowIndex,
  columns,
  selected,
  active,
  onToggle,
  onOpen,
}: {
  record: AgentRecord;
  /** Among all the records of the view, the header row being 1 (`aria-rowindex`). */
  rowIndex: number;
  columns: CellColumn[];
  selected: boolean;
  /** The row of the table's one Tab stop (use-row-keys.ts handles the keys). */
  active: boolean;
  onToggle(id: string, checked: boolean): void;
  onOpen(record: AgentRecord): void;
}) {
  return (
    <tr
      className="rt-row"
      onClick={() => onOpen(record)}
      tabIndex={active ? 0 : -1}
      data-selected={selected || undefined}
      data-record-id={record.id}
      aria-rowindex={rowIndex}
    >
      <td style={{ width: 36 }}>
        <input
          type="checkbox"
          className="rt-check"
          tabIndex={-1}
          aria-label={`Select record ${record.id}`}
          checked={selected}
          onClick={(event) => event.stopPropagation()}
          onChange={(event) => onToggle(record.id, event.currentTarget.checked)}
        />
      </td>
      {columns.map((column) => (
        <td key={column.id}>{column.render(record)}</td>
      ))}
    </tr>
  );
});

function useColumnPrefs(workspace: string, user: number, collection: SchemaCollection) {
  const key = columnsKey(workspace, user, collection);
  const [visible, setVisible] = useState(() => readColumns(workspace, user, collection));
  useEffect(() => setVisible(readColumns(workspace, user, collection)), [key]);
  return {
    available: availableColumns(collection),
    visible,
    set(next: string[]) {
      localStorage.setItem(key, JSON.stringify(next));
      setVisible(next);
    },
    reset() {
      localStorage.removeItem(key);
      setVisible(defaultColumns(collection));
    },
  };
}

/** The list a record was opened from: the record page's previous/next buttons walk it. */
export interface ListContext {
  ids: string[];
  search: string;
  label: string;
}

export function saveListContext(collection: string, context: ListContext): void {
  sessionStorage.setItem(`canopy.list.${collection}`, JSON.stringify(context));
}

export function readListContext(collection: string): (ListContext & { back?: string }) | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(`canopy.list.${collection}`) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

export interface CollectionTableProps {
  collection: SchemaCollection;
  source: ListSource;
  /** URL parameter prefix of this table's view (related tabs use one). */
  prefix?: string;
  /** The relation this table shows, to dissociate/associate from the parent record. */
  relation?: SchemaField;
  title?: ReactNode;
}

export function CollectionTable({
  collection,
  source,
  prefix = '',
  relation,
  title,
}: CollectionTableProps) {
  const { workspace, session, client } = useSession();
  const schema = useSchema().data!;
  const can = useCan();
  const base = useDataBase();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [addressParams, setParams] = useSearchParams();
  // Page size, sort, search and filter outlive leaving the list (use-list-memory.ts).
  const params = useListMemory({
    enabled: prefix === '' && !source.related,
    workspace: workspace.id,
    user: session.user.id,
    collection: collection.name,
    params: addressParams,
    setParams,
  });
  const view = readView(params, prefix);
  const setView = (next: Partial<ViewState>, resetPage = true, replace = false) =>
    setParams(writeView(params, { ...view, ...(resetPage ? { page: 1 } : {}), ...next }, prefix), {
      replace,
    });
  const prefs = useColumnPrefs(workspace.id, session.user.id, collection);
  // Searched as it is typed; each search replaces the previous one in the history.
  const searchBox = useSearchAsYouType(view.search, (search) => setView({ search }, true, true));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<'delete' | 'dissociate' | 'delete-related'>();
  const [filterOpen, setFilterOpen] = useState(false);
  const { draft, setDraft, dirty: draftDirty } = useFilterDraft(view.filters);
  const [exporting, setExporting] = useState<string>();
  const [associating, setAssociating] = useState(false);

  const listParams = tableListParams(schema, collection, view, prefs.visible);
  const list = useList(source, listParams);
  const count = useCount(source, listParams);
  const rows = list.data ?? [];
  const searching = searchBox.waiting || (list.isFetching && view.search !== '');
  const searchId = useId();

  useEffect(() => setSelected((was) => (was.size ? new Set() : was)), [list.data]);
  useEffect(() => {
    const error = list.error ?? count.error;
    if (error instanceof AgentError && error.status === 403)
      rememberDenied(collection.name, 'browseEnabled');
  }, [list.error, count.error, collection.name]);

  // A new page mounts a screenful of rows first (rows are at least 32 px high) and the rest in
  // the tasks after that frame is painted: the rows in view paint without waiting for the others.
  const [mounted, setMounted] = useState({ data: list.data, count: firstRows() });
  let mountedCount = mounted.count;
  if (mounted.data !== list.data) {
    mountedCount = firstRows();
    setMounted({ data: list.data, count: mountedCount });
  }
  const allMounted = mountedCount >= rows.length;
  useEffect(() => {
    if (mounted.count >= rows.length) return;
    return afterNextPaint(() =>
      startTransition(() =>
        setMounted((was) =>
          was.data === mounted.data ? { ...was, count: was.count + LATER_ROWS } : was,
        ),
      ),
    );
  }, [mounted, rows.length]);

  // Render time of a page, from the decoded answer to the painted frame (README: performance):
  // `ms` to the frame with the rows in view, split in waiting for React to start (`queuedMs`),
  // React's render and commit (`renderMs`) and the frame; `allRowsMs` to the frame with every
  // row of the page mounted.
  const tableRef = useRef<HTMLTableElement>(null);
  // Another view (page, sort, search…) starts at the top of the table's frame.
  const frameRef = useRef<HTMLDivElement>(null);
  const viewKey = writeView(new URLSearchParams(), view).toString();
  useLayoutEffect(() => {
    // A block: `scrollTo` answers a promise in newer browsers, not an effect's clean-up.
    frameRef.current?.scrollTo({ top: 0 });
  }, [viewKey]);
  const renderStart = useRef<{ data?: unknown; at: number }>({ at: 0 });
  const measured = useRef<{ data?: unknown; entry?: RenderMeasure }>({});
  if (list.data && renderStart.current.data !== list.data) {
    renderStart.current = { data: list.data, at: performance.now() };
  }
  useLayoutEffect(() => {
    const start = list.data && receivedAt.get(list.data);
    if (start === undefined) return;
    const began = renderStart.current.at;
    const committed = performance.now();
    const entry: RenderMeasure = {
      collection: collection.name,
      rows: list.data!.length,
      ms: 0,
      queuedMs: began - start,
      renderMs: committed - began,
    };
    measured.current = { data: list.data, entry };
    return afterNextPaint(() => {
      entry.ms = performance.now() - start;
      (window.__canopyRenders ??= []).push(entry);
      if (
        performance.getEntriesByName('canopy:signed-in').length &&
        !performance.getEntriesByName('canopy:first-screen').length
      ) {
        performance.mark('canopy:first-screen');
      }
      tableRef.current?.setAttribute('data-render-ms', entry.ms.toFixed(1));
    });
  }, [list.data, collection.name]);
  useLayoutEffect(() => {
    const start = list.data && receivedAt.get(list.data);
    const { data, entry } = measured.current;
    if (!allMounted || start === undefined || data !== list.data || !entry) return;
    return afterNextPaint(() => {
      entry.allRowsMs = performance.now() - start;
    });
  }, [allMounted, list.data]);

  const recordUrl = (record: AgentRecord) =>
    `${base}/${encodeURIComponent(collection.name)}/${encodeURIComponent(record.id)}`;

  // Stable per collection, columns, schema and search: a new page of rows re-creates nothing.
  const search = view.search || undefined;
  const cellColumns = useMemo<CellColumn[]>(() => {
    const byName = new Map(collection.fields.map((f) => [f.field, f]));
    return prefs.visible
      .map((name) => byName.get(name))
      .filter((f): f is SchemaField => f !== undefined)
      .map((field) => {
        if (!isToOne(field)) {
          return {
            id: field.field,
            render: (record: AgentRecord) => (
              <CellValue field={field} value={record.values[field.field]} search={search} />
            ),
          };
        }
        const target = collectionOf(schema, targetCollection(field));
        const label = target ? labelField(target) : undefined;
        return {
          id: field.field,
          render: (record: AgentRecord) => {
            const related = record.toOne[field.field];
            if (!related) return <span className="cv-dim">—</span>;
            return (
              <CellRelationLink
                to={`${base}/${encodeURIComponent(related.type)}/${encodeURIComponent(related.id)}`}
                label={String((label && related.values[label]) ?? related.id)}
                search={search}
              />
            );
          },
        };
      });
  }, [collection, prefs.visible, schema, base, search]);

  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const pageSelection = !rows.some((r) => selected.has(r.id))
    ? 'none'
    : rows.every((r) => selected.has(r.id))
      ? 'all'
      : 'some';
  const columnsDef = useMemo<ColumnDef<AgentRecord>[]>(
    () => [
      {
        id: '__select',
        header: () => (
          <Checkbox
            size="xs"
            aria-label="Select every record of this page"
            checked={pageSelection === 'all'}
            indeterminate={pageSelection === 'some'}
            onChange={(event) =>
              setSelected(
                event.currentTarget.checked ? new Set(rowsRef.current.map((r) => r.id)) : new Set(),
              )
            }
          />
        ),
      },
      ...cellColumns.map((column) => ({ id: column.id, header: humanize(column.id) })),
    ],
    [cellColumns, pageSelection],
  );

  const toggle = useCallback((id: string, checked: boolean) => {
    setSelected((was) => {
      const next = new Set(was);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const openRef = useRef<(record: AgentRecord) => void>(() => undefined);
  const open = useCallback((record: AgentRecord) => openRef.current(record), []);
  const rowKeys = useRowKeys({
    count: rows.length,
    page: list.data,
    onOpen: (index) => rows[index] && open(rows[index]),
    onSelect: (index) => {
      const id = rows[index]?.id;
      if (id !== undefined) toggle(id, !selected.has(id));
    },
  });

  const table = useReactTable({
    data: rows,
    columns: columnsDef,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    getRowId: (record) => record.id,
  });

  const total = count.data;
  const pageCount =
    typeof total === 'number' ? Math.max(1, Math.ceil(total / view.size)) : undefined;
  const first = rows.length ? (view.page - 1) * view.size + 1 : 0;
  const last = (view.page - 1) * view.size + rows.length;
  const name = humanize(collection.name).toLowerCase();
  const filterCount = countLeaves(view.filters);
  const related = source.related;
  const canDelete = can(collection.name, 'deleteEnabled');
  const canExport = can(collection.name, 'exportEnabled');
  const canAdd = can(collection.name, 'addEnabled') && !collection.isReadOnly;
  const canEditRelation = related ? can(collection.name, 'editEnabled') : false;

  const invalidate = () =>
    queryClient
      .invalidateQueries({ queryKey: ['list'] })
      .then(() => queryClient.invalidateQueries({ queryKey: ['count'] }));

  openRef.current = (record: AgentRecord) => {
    saveListContext(collection.name, {
      ids: rows.map((r) => r.id),
      search: params.toString(),
      label: humanize(collection.name),
    });
    navigate(recordUrl(record));
  };

  const runSelectionChange = async (mode: 'delete' | 'dissociate' | 'delete-related') => {
    const ids = [...selected];
    try {
      if (mode === 'delete') await client.remove(collection.name, { ids });
      else
        await client.dissociate(
          related!.parent,
          related!.parentId,
          related!.relation,
          collection.name,
          { ids },
          { delete: mode === 'delete-related' },
        );
      notifications.show({
        color: 'teal',
        message: `${ids.length} ${ids.length === 1 ? 'record' : 'records'} ${mode === 'dissociate' ? 'dissociated' : 'deleted'}.`,
      });
      setSelected(new Set());
      await invalidate();
    } catch (error) {
      if (error instanceof AgentError && error.status === 403)
        rememberDenied(collection.name, mode === 'dissociate' ? 'editEnabled' : 'deleteEnabled');
      notifications.show({
        color: 'red',
        title: 'Nothing was changed',
        message: (error as Error).message,
      });
    } finally {
      setConfirm(undefined);
    }
  };

  const exportCsv = async () => {
    const exportable = prefs.visible.filter((n) => {
      const field = collection.fields.find((f) => f.field === n);
      return field && (!isRelation(field) || isToOne(field));
    });
    const relationFields = relationProjection(schema, collection, exportable);
    const url = client.csvUrl(
      collection.name,
      { ...listParams, fields: exportable, relationFields },
      exportable.map(humanize),
      collection.name,
      related,
    );
    setExporting('Starting…');
    const filename = `${collection.name}-${new Date().toISOString().slice(0, 10)}.csv`;
    const progress = (bytes: number) => setExporting(`${(bytes / 1024).toFixed(0)} KB`);
    try {
      const worker = await downloadWorker();
      if (worker) {
        // Streamed to disk by the service worker (download.ts).
        exportModes.push('stream');
        await streamDownload(worker, {
          url,
          token: client.token(),
          filename,
          onProgress: progress,
        });
        return;
      }
      exportModes.push('memory');
      const blob = await client.downloadCsv(url, progress);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 403) rememberDenied(collection.name, 'exportEnabled');
      notifications.show({
        color: 'red',
        title: 'Export failed',
        message: (error as Error).message,
      });
    } finally {
      setExporting(undefined);
    }
  };

  const segments = collection.segments ?? [];
  // Without a sort in the view, the agent lists by primary key: its header shows that order.
  const sortIcon = (sorted: 'ascending' | 'descending' | 'none') =>
    sorted === 'ascending' ? (
      <IconChevronUp size={14} />
    ) : sorted === 'descending' ? (
      <IconChevronDown size={14} />
    ) : (
      <IconArrowsSort size={14} opacity={0.35} />
    );
  const error = list.error ?? count.error;
  const notice = error ? listErrorNotice(error) : undefined;

  // Built only when what they show changes: a new page of rows re-renders the rows, the range
  // and the select-all box, not the toolbar, the column headers or the pager.
  const toolbar = useMemo(
    () => (
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          {title}
          <TextInput
            aria-label={`Search ${name}`}
            placeholder={
              collection.isSearchable === false ? 'Search is off here' : `Search ${name}`
            }
            title={
              collection.isSearchable === false
                ? `The agent turned search off for ${name}`
                : undefined
            }
            disabled={collection.isSearchable === false}
            leftSection={<IconSearch size={14} />}
            rightSection={
              searching ? <Loader size={14} aria-hidden data-testid="searching" /> : undefined
            }
            value={searchBox.text}
            onChange={(event) => searchBox.setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') searchBox.flush();
              if (event.key === 'Escape') searchBox.clear();
            }}
            onBlur={searchBox.flush}
            aria-describedby={`${searchId}-hint`}
            w={220}
          />
          <VisuallyHidden id={`${searchId}-hint`}>Results update as you type.</VisuallyHidden>
          <VisuallyHidden role="status">{searching ? 'Searching…' : ''}</VisuallyHidden>
          <Popover
            opened={filterOpen}
            onChange={setFilterOpen}
            width={640}
            position="bottom-start"
            shadow="md"
            trapFocus
            // Escape closes the innermost open list first (a field's options, a date picker),
            // then the builder, which keeps its draft; focus goes back to the Filter button.
            closeOnEscape={false}
            returnFocus
          >
            <Popover.Target>
              <Button
                variant={filterCount ? 'light' : 'default'}
                leftSection={<IconFilter size={16} />}
                rightSection={
                  filterCount ? (
                    <Badge size="xs" circle>
                      {filterCount}
                    </Badge>
                  ) : undefined
                }
                onClick={() => setFilterOpen((open) => !open)}
                aria-description={draftDirty ? 'A draft filter is not applied yet' : undefined}
              >
                Filter
                {draftDirty && !filterOpen && (
                  <Text span size="xs" c="orange" ml={6} data-testid="filter-draft">
                    draft
                  </Text>
                )}
              </Button>
            </Popover.Target>
            <Popover.Dropdown
              maw="calc(100vw - 32px)"
              onKeyDownCapture={(event) => {
                if (event.key !== 'Escape' || innerPopupOpen(event.currentTarget)) return;
                event.stopPropagation();
                setFilterOpen(false);
              }}
            >
              <Stack gap="sm">
                <Suspense fallback={<Skeleton h={36} aria-label="Loading the filter" />}>
                  <FilterBuilder
                    value={draft}
                    fields={filterableFields(schema, collection)}
                    onChange={setDraft}
                  />
                </Suspense>
                <Group justify="space-between">
                  {draftDirty ? (
                    <Text size="xs" c="dimmed">
                      Not applied yet: closing keeps this draft.
                    </Text>
                  ) : (
                    <span />
                  )}
                  <Group gap="xs">
                    <Button
                      variant="subtle"
                      color="gray"
                      onClick={() => {
                        setDraft(asGroup(undefined));
                        setView({ filters: undefined });
                        setFilterOpen(false);
                      }}
                    >
                      Clear
                    </Button>
                    <Button
                      onClick={() => {
                        setView({ filters: draft });
                        setFilterOpen(false);
                      }}
                    >
                      Apply filter
                    </Button>
                  </Group>
                </Group>
              </Stack>
            </Popover.Dropdown>
          </Popover>
          {segments.length > 0 && (
            <Select
              aria-label="Segment"
              placeholder="All records"
              data={segments.map((s) => s.name)}
              value={view.segment ?? null}
              onChange={(value) => setView({ segment: value ?? undefined })}
              clearable
              w={170}
            />
          )}
        </Group>
        <Group gap="xs" wrap="wrap">
          <ActionsMenu
            collection={collection}
            place="table"
            selection={{
              ids: [...selected],
              filters: view.filters,
              search: view.search || undefined,
              segment: view.segment,
              parent: related
                ? { collection: related.parent, id: related.parentId, relation: related.relation }
                : undefined,
            }}
          />
          {selected.size > 0 && related && canEditRelation && (
            <Button
              color="orange"
              variant="light"
              leftSection={<IconUnlink size={16} />}
              onClick={() => setConfirm('dissociate')}
            >
              Dissociate {selected.size}
            </Button>
          )}
          {selected.size > 0 && canDelete && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              onClick={() => setConfirm(related ? 'delete-related' : 'delete')}
            >
              Delete {selected.size}
            </Button>
          )}
          <ColumnChooser
            all={prefs.available}
            visible={prefs.visible}
            onChange={prefs.set}
            onReset={prefs.reset}
          />
          {canExport && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={exportCsv}
              loading={exporting !== undefined}
            >
              Export CSV
            </Button>
          )}
          {related && canEditRelation && (
            <Button
              variant="default"
              leftSection={<IconLink size={16} />}
              onClick={() => setAssociating(true)}
            >
              Associate
            </Button>
          )}
          {!related && canAdd && (
            <Button
              component={Link}
              to={`${base}/${encodeURIComponent(collection.name)}/new`}
              leftSection={<IconPlus size={16} />}
            >
              New {humanize(collection.name).replace(/s$/, '').toLowerCase()}
            </Button>
          )}
        </Group>
      </Group>
    ),
    // `params` stands for the view and `setView`.
    [
      params,
      searchBox.text,
      searching,
      filterOpen,
      draft,
      selected,
      exporting,
      prefs.visible,
      collection,
      schema,
      title,
      base,
      can,
      related,
      canDelete,
      canExport,
      canAdd,
      canEditRelation,
    ],
  );
  const thead = useMemo(
    () => (
      <Table.Thead>
        {table.getHeaderGroups().map((group) => (
          <Table.Tr key={group.id} aria-rowindex={1}>
            {group.headers.map((header) => {
              const field = collection.fields.find((f) => f.field === header.column.id);
              const isSelect = header.column.id === '__select';
              const refusal = isSelect ? undefined : sortRefusal(field);
              const sortable = !isSelect && refusal === undefined;
              const sorted = headerSort(collection, view.sort, header.column.id);
              return (
                <Table.Th
                  key={header.id}
                  w={header.column.id === '__select' ? 36 : undefined}
                  aria-sort={sortable ? sorted : undefined}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {sortable ? (
                    <UnstyledButton
                      onClick={() =>
                        setView(
                          { sort: clickedSort(collection, view.sort, header.column.id) },
                          false,
                        )
                      }
                      aria-label={`Sort by ${humanize(header.column.id)}`}
                    >
                      <Group gap={4} wrap="nowrap">
                        <Text size="sm" fw={600}>
                          {humanize(header.column.id)}
                        </Text>
                        {sortIcon(sorted)}
                      </Group>
                    </UnstyledButton>
                  ) : isSelect ? (
                    flexRender(header.column.columnDef.header, header.getContext())
                  ) : (
                    // Not a button: the header says it does not sort, and why.
                    <Tooltip
                      label={refusal}
                      multiline
                      w={260}
                      withArrow
                      events={{ hover: true, focus: true, touch: true }}
                    >
                      <Group
                        gap={4}
                        wrap="nowrap"
                        tabIndex={0}
                        data-unsortable
                        aria-label={`${humanize(header.column.id)}: cannot be sorted. ${refusal}`}
                        style={{ cursor: 'help' }}
                      >
                        <Text size="sm" fw={600}>
                          {humanize(header.column.id)}
                        </Text>
                        <IconLock size={12} opacity={0.45} aria-hidden />
                      </Group>
                    </Tooltip>
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Thead>
    ),
    [table, columnsDef, collection, view.sort, params],
  );
  const pager = useMemo(
    () => (
      <Group gap="xs">
        <Select
          aria-label="Records per page"
          data={PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} per page` }))}
          value={String(view.size)}
          onChange={(value) => setView({ size: Number(value) })}
          w={130}
          size="xs"
          allowDeselect={false}
        />
        {pageCount !== undefined ? (
          <Pagination
            size="sm"
            total={pageCount}
            value={Math.min(view.page, pageCount)}
            onChange={(page) => setView({ page }, false)}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            siblings={1}
          />
        ) : (
          <Group gap={4}>
            <Button
              size="xs"
              variant="default"
              disabled={view.page <= 1}
              onClick={() => setView({ page: view.page - 1 }, false)}
            >
              Previous
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={rows.length < view.size}
              onClick={() => setView({ page: view.page + 1 }, false)}
            >
              Next
            </Button>
          </Group>
        )}
      </Group>
    ),
    [params, view.size, view.page, pageCount, rows.length],
  );
  const confirmModal = useMemo(
    () => (
      <Modal
        opened={confirm !== undefined}
        onClose={() => setConfirm(undefined)}
        title={confirm === 'dissociate' ? 'Dissociate records?' : 'Delete records?'}
        centered
      >
        <Stack>
          <Text size="sm">
            {confirm === 'dissociate'
              ? `The ${selected.size} selected ${selected.size === 1 ? 'record stays' : 'records stay'}, but ${selected.size === 1 ? 'is' : 'are'} no longer linked to this record.`
              : `The ${selected.size} selected ${selected.size === 1 ? 'record is' : 'records are'} deleted for good. This cannot be undone.`}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(undefined)}>
              Cancel
            </Button>
            <Button
              color={confirm === 'dissociate' ? 'orange' : 'red'}
              onClick={() => runSelectionChange(confirm!)}
              data-autofocus
            >
              {confirm === 'dissociate' ? 'Dissociate' : `Delete ${selected.size}`}
            </Button>
          </Group>
        </Stack>
      </Modal>
    ),
    [confirm, selected, collection, related, client],
  );

  return (
    <Stack gap="sm">
      {toolbar}

      {notice && (
        <Alert color={notice.color} title={notice.title} role="alert">
          <ErrorMessage error={notice} />
        </Alert>
      )}

      {/* The table scrolls in its frame, under its sticky header row. */}
      <Paper withBorder radius="md" className="rt-frame" ref={frameRef}>
        <Table
          ref={tableRef}
          highlightOnHover
          stickyHeader
          verticalSpacing={6}
          aria-label={`${humanize(collection.name)} records`}
          aria-busy={list.isFetching}
          data-view={params.toString()}
          data-loaded={
            !list.isPlaceholderData && !list.isFetching && !count.isFetching && allMounted
          }
          aria-rowcount={typeof total === 'number' ? total + 1 : undefined}
          style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}
        >
          {thead}
          <Table.Tbody
            ref={rowKeys.bodyRef}
            onKeyDown={rowKeys.onKeyDown}
            onFocus={rowKeys.onFocus}
          >
            {list.isPending &&
              Array.from({ length: 8 }, (_, i) => (
                <tr key={i} className="rt-row rt-loading" aria-hidden>
                  {columnsDef.map((_c, j) => (
                    <td key={j}>
                      <div className="rt-skeleton" />
                    </td>
                  ))}
                </tr>
              ))}
            {(allMounted ? rows : rows.slice(0, mountedCount)).map((record, index) => (
              <RecordRow
                key={record.id}
                rowIndex={first + index + 1}
                record={record}
                columns={cellColumns}
                selected={selected.has(record.id)}
                active={index === rowKeys.active}
                onToggle={toggle}
                onOpen={open}
              />
            ))}
          </Table.Tbody>
        </Table>
        {!list.isPending && !error && rows.length === 0 && (
          <Stack align="center" gap={6} py="xl">
            <Text fw={500}>
              No {name} {view.search || filterCount || view.segment ? 'match this view' : 'yet'}
            </Text>
            {(view.search || filterCount > 0 || view.segment) && (
              <Button
                variant="subtle"
                size="xs"
                onClick={() => setView({ search: '', filters: undefined, segment: undefined })}
              >
                Clear search and filters
              </Button>
            )}
          </Stack>
        )}
      </Paper>

      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="range">
          {rows.length === 0
            ? ''
            : typeof total === 'number'
              ? `${countFormat.format(first)}–${countFormat.format(last)} of ${countFormat.format(total)}`
              : count.isPending
                ? `${countFormat.format(first)}–${countFormat.format(last)} of …`
                : `${countFormat.format(first)}–${countFormat.format(last)} (counting is off for this collection)`}
          {exporting ? ` · exporting ${exporting}` : ''}
        </Text>
        {pager}
      </Group>

      {confirmModal}
      {related && relation && (
        <Modal
          opened={associating}
          onClose={() => setAssociating(false)}
          title={`Associate ${humanize(collection.name).toLowerCase()}`}
          centered
        >
          <RecordPicker
            collection={collection}
            label={`Find a record of ${humanize(collection.name).toLowerCase()}`}
            value={null}
            onChange={async (picked) => {
              if (!picked) return;
              try {
                await client.associate(related.parent, related.parentId, related.relation, {
                  type: collection.name,
                  id: picked.id,
                });
                notifications.show({ color: 'teal', message: 'Record associated.' });
                setAssociating(false);
                await invalidate();
              } catch (error) {
                notifications.show({
                  color: 'red',
                  title: 'Not associated',
                  message: (error as Error).message,
                });
              }
            }}
          />
        </Modal>
      )}
    </Stack>
  );
}
