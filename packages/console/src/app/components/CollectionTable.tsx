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
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowsSort,
  IconChevronDown,
  IconChevronUp,
  IconDownload,
  IconFilter,
  IconLink,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUnlink,
} from '@tabler/icons-react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  AgentError,
  countLeaves,
  humanize,
  isRelation,
  isToOne,
  labelField,
  nextSort,
  PAGE_SIZES,
  readView,
  targetCollection,
  typeName,
  writeView,
  type AgentRecord,
  type ConditionBranch,
  type ListParams,
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
import { asGroup, FilterBuilder, filterableFields } from './FilterBuilder';
import { ActionsMenu } from '../features/actions/ActionsMenu';
import { ColumnChooser } from './ColumnChooser';
import { RelationLink, Value } from './Value';
import { RecordPicker } from './RecordPicker';

const countFormat = new Intl.NumberFormat();

/**
 * The columns shown by default, up to 8: the primary key, the record's label, enums, to-one
 * relations, then other plain columns; fields imported from relations (`a@@@b`) and JSON last.
 */
function defaultColumns(collection: SchemaCollection): string[] {
  const label = labelField(collection);
  const rank = (field: SchemaField): number => {
    if (field.isPrimaryKey) return 0;
    if (field.field === label) return 1;
    if (field.field.includes('@@@')) return 8;
    const type = typeName(field.type);
    if (type === 'Enum') return 2;
    if (isToOne(field)) return 3;
    if (type === 'String' || type === 'Number' || type === 'Boolean') return 4;
    if (type === 'Date' || type === 'Dateonly') return 5;
    if (type === 'Json' || type === 'Object' || type === 'Array') return 9;
    return 6;
  };
  return collection.fields
    .filter((f) => !isRelation(f) || isToOne(f))
    .map((field, index) => ({ field, index }))
    .sort((a, b) => rank(a.field) - rank(b.field) || a.index - b.index)
    .slice(0, 8)
    .map(({ field }) => field.field);
}

function useColumnPrefs(workspace: string, user: number, collection: SchemaCollection) {
  const key = `canopy.columns.${workspace}.${user}.${collection.name}`;
  const available = collection.fields
    .filter((f) => !isRelation(f) || isToOne(f))
    .map((f) => f.field);
  const read = () => {
    try {
      const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as string[] | null;
      const valid = stored?.filter((name) => available.includes(name));
      return valid?.length ? valid : defaultColumns(collection);
    } catch {
      return defaultColumns(collection);
    }
  };
  const [visible, setVisible] = useState(read);
  useEffect(() => setVisible(read()), [key]);
  return {
    available,
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
  const [params, setParams] = useSearchParams();
  const view = readView(params, prefix);
  const setView = (next: Partial<ViewState>, resetPage = true) =>
    setParams(writeView(params, { ...view, ...(resetPage ? { page: 1 } : {}), ...next }, prefix), {
      replace: false,
    });
  const prefs = useColumnPrefs(workspace.id, session.user.id, collection);
  const [searchText, setSearchText] = useState(view.search);
  useEffect(() => setSearchText(view.search), [view.search]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<'delete' | 'dissociate' | 'delete-related'>();
  const [filterOpen, setFilterOpen] = useState(false);
  const [draft, setDraft] = useState<ConditionBranch>(asGroup(view.filters));
  const [exporting, setExporting] = useState<string>();
  const [associating, setAssociating] = useState(false);

  const pks = collection.fields.filter((f) => f.isPrimaryKey).map((f) => f.field);
  const fields = [...new Set([...pks, ...prefs.visible])];
  const listParams: ListParams = {
    fields,
    relationFields: relationProjection(schema, collection, fields),
    sort: view.sort,
    page: { number: view.page, size: view.size },
    search: view.search,
    filters: view.filters,
    segment: view.segment,
  };
  const list = useList(source, listParams);
  const count = useCount(source, listParams);
  const rows = list.data ?? [];

  useEffect(() => setSelected(new Set()), [list.data]);
  useEffect(() => {
    const error = list.error ?? count.error;
    if (error instanceof AgentError && error.status === 403)
      rememberDenied(collection.name, 'browseEnabled');
  }, [list.error, count.error, collection.name]);

  // Render time of a page, from the decoded answer to the painted table (README: performance).
  const tableRef = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const start = list.data && receivedAt.get(list.data);
    if (start === undefined) return;
    requestAnimationFrame(() => {
      const ms = performance.now() - start;
      const perf = ((window as unknown as { __canopyRenders?: unknown[] }).__canopyRenders ??= []);
      perf.push({ collection: collection.name, rows: list.data!.length, ms });
      if (
        performance.getEntriesByName('canopy:signed-in').length &&
        !performance.getEntriesByName('canopy:first-screen').length
      ) {
        performance.mark('canopy:first-screen');
      }
      tableRef.current?.setAttribute('data-render-ms', ms.toFixed(1));
    });
  }, [list.data, collection.name]);

  const recordUrl = (record: AgentRecord) =>
    `${base}/${encodeURIComponent(collection.name)}/${encodeURIComponent(record.id)}`;

  const columnsDef = useMemo<ColumnDef<AgentRecord>[]>(() => {
    const byName = new Map(collection.fields.map((f) => [f.field, f]));
    const select: ColumnDef<AgentRecord> = {
      id: '__select',
      header: () => (
        <Checkbox
          size="xs"
          aria-label="Select every record of this page"
          checked={rows.length > 0 && rows.every((r) => selected.has(r.id))}
          indeterminate={
            rows.some((r) => selected.has(r.id)) && !rows.every((r) => selected.has(r.id))
          }
          onChange={(event) =>
            setSelected(event.currentTarget.checked ? new Set(rows.map((r) => r.id)) : new Set())
          }
        />
      ),
      cell: ({ row }) => (
        <Checkbox
          size="xs"
          aria-label={`Select record ${row.original.id}`}
          checked={selected.has(row.original.id)}
          onClick={(event) => event.stopPropagation()}
          onChange={(event) => {
            const next = new Set(selected);
            if (event.currentTarget.checked) next.add(row.original.id);
            else next.delete(row.original.id);
            setSelected(next);
          }}
        />
      ),
    };
    return [
      select,
      ...prefs.visible
        .map((name) => byName.get(name))
        .filter((f): f is SchemaField => f !== undefined)
        .map<ColumnDef<AgentRecord>>((field) => ({
          id: field.field,
          header: humanize(field.field),
          cell: ({ row }) => {
            const record = row.original;
            const search = view.search || undefined;
            if (isToOne(field)) {
              const related = record.toOne[field.field];
              if (!related)
                return (
                  <Text span c="dimmed" size="sm">
                    —
                  </Text>
                );
              const target = collectionOf(schema, targetCollection(field));
              const label = target ? related.values[labelField(target)] : undefined;
              return (
                <RelationLink
                  to={`${base}/${encodeURIComponent(related.type)}/${encodeURIComponent(related.id)}`}
                  label={String(label ?? related.id)}
                  search={search}
                />
              );
            }
            return (
              <Value field={field} value={record.values[field.field]} search={search} compact />
            );
          },
        })),
    ];
  }, [collection, prefs.visible, rows, selected, schema, base, view.search]);

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

  const openRecord = (record: AgentRecord) => {
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
    try {
      const blob = await client.downloadCsv(url, (bytes) =>
        setExporting(`${(bytes / 1024).toFixed(0)} KB`),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${collection.name}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      if (error instanceof AgentError && error.status === 403)
        rememberDenied(collection.name, 'exportEnabled');
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
  const sortIcon = (field: string) =>
    view.sort === field ? (
      <IconChevronUp size={14} />
    ) : view.sort === `-${field}` ? (
      <IconChevronDown size={14} />
    ) : (
      <IconArrowsSort size={14} opacity={0.35} />
    );
  const error = list.error ?? count.error;

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          {title}
          <TextInput
            aria-label={`Search ${name}`}
            placeholder={
              collection.isSearchable === false
                ? 'Search is off for this collection'
                : `Search ${name}`
            }
            disabled={collection.isSearchable === false}
            leftSection={<IconSearch size={14} />}
            value={searchText}
            onChange={(event) => setSearchText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') setView({ search: searchText });
              if (event.key === 'Escape') {
                setSearchText('');
                setView({ search: '' });
              }
            }}
            onBlur={() => searchText !== view.search && setView({ search: searchText })}
            w={220}
          />
          <Popover
            opened={filterOpen}
            onChange={setFilterOpen}
            width={640}
            position="bottom-start"
            shadow="md"
            trapFocus
            closeOnEscape
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
                onClick={() => {
                  setDraft(asGroup(view.filters));
                  setFilterOpen((open) => !open);
                }}
              >
                Filter
              </Button>
            </Popover.Target>
            <Popover.Dropdown maw="calc(100vw - 32px)">
              <Stack gap="sm">
                <FilterBuilder
                  value={draft}
                  fields={filterableFields(schema, collection)}
                  onChange={setDraft}
                />
                <Group justify="space-between">
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

      {error && (
        <Alert
          color="red"
          title={
            error instanceof AgentError && error.status === 403
              ? 'Not allowed'
              : 'The agent answered with an error'
          }
          role="alert"
        >
          {error.message}
        </Alert>
      )}

      <Paper withBorder radius="md" style={{ overflow: 'auto' }}>
        <Table
          ref={tableRef}
          highlightOnHover
          stickyHeader
          verticalSpacing={6}
          aria-label={`${humanize(collection.name)} records`}
          aria-busy={list.isFetching}
          data-view={params.toString()}
          data-loaded={!list.isPlaceholderData && !list.isFetching && !count.isFetching}
          aria-rowcount={typeof total === 'number' ? total : undefined}
          style={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const field = collection.fields.find((f) => f.field === header.column.id);
                  const sortable = field && field.isSortable !== false && !isRelation(field);
                  const sorted =
                    view.sort === header.column.id
                      ? 'ascending'
                      : view.sort === `-${header.column.id}`
                        ? 'descending'
                        : 'none';
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
                            setView({ sort: nextSort(view.sort, header.column.id) }, false)
                          }
                          aria-label={`Sort by ${humanize(header.column.id)}`}
                        >
                          <Group gap={4} wrap="nowrap">
                            <Text size="sm" fw={600}>
                              {humanize(header.column.id)}
                            </Text>
                            {sortIcon(header.column.id)}
                          </Group>
                        </UnstyledButton>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {list.isPending &&
              Array.from({ length: 8 }, (_, i) => (
                <Table.Tr key={i}>
                  {columnsDef.map((_c, j) => (
                    <Table.Td key={j}>
                      <Skeleton h={14} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            {table.getRowModel().rows.map((row) => (
              <Table.Tr
                key={row.id}
                onClick={() => openRecord(row.original)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && event.target === event.currentTarget)
                    openRecord(row.original);
                }}
                tabIndex={0}
                style={{ cursor: 'pointer' }}
                bg={selected.has(row.id) ? 'var(--mantine-color-teal-light)' : undefined}
                data-record-id={row.id}
              >
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id} style={{ maxWidth: 320, whiteSpace: 'nowrap' }}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
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
      </Group>

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
