import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import {
  CHART_KINDS,
  chartQueryProblem,
  humanize,
  isRelation,
  isToMany,
  statsBody,
  targetCollection,
  typeName,
  type AgentSchema,
  type Aggregator,
  type ChartKind,
  type CollectionChartQuery,
  type CollectionChartType,
  type DashboardItem,
  type TimeRange,
} from '../../../protocol';
import { ChartView } from './ChartView';

const TYPES: { value: CollectionChartType; label: string }[] = [
  { value: 'Value', label: 'Value' },
  { value: 'Pie', label: 'Distribution' },
  { value: 'Line', label: 'Time-based' },
  { value: 'Objective', label: 'Objective' },
  { value: 'Leaderboard', label: 'Leaderboard' },
];
const KIND_LABELS: Record<ChartKind, string> = {
  value: 'Value',
  distribution: 'Distribution',
  time: 'Time-based',
  'multiple-time': 'Multiple time-based',
  percentage: 'Percentage',
  objective: 'Objective',
  leaderboard: 'Leaderboard',
  smart: 'Smart (JSON)',
};
const NUMERIC = new Set(['Number']);
const DATES = new Set(['Date', 'Dateonly']);

/** Adds a chart: built here from a collection, or declared in the agent's code. */
export function ChartEditor({
  schema,
  opened,
  onClose,
  onAdd,
}: {
  schema: AgentSchema;
  opened: boolean;
  onClose(): void;
  onAdd(item: DashboardItem): void;
}) {
  const [source, setSource] = useState<'collection' | 'api'>('collection');
  const [title, setTitle] = useState('');
  const [width, setWidth] = useState('6');
  const [query, setQuery] = useState<CollectionChartQuery>({
    type: 'Value',
    sourceCollectionName: '',
    aggregator: 'Count',
    aggregateFieldName: null,
  });
  const [api, setApi] = useState({ chart: '', collection: '', recordId: '', kind: 'value' });
  const [preview, setPreview] = useState(false);

  const collections = schema.collections.filter((c) => !c.onlyForRelationships);
  const collection = collections.find((c) => c.name === query.sourceCollectionName);
  const fields = collection?.fields.filter((f) => !isRelation(f)) ?? [];
  const toMany = collection?.fields.filter(isToMany) ?? [];
  const set = (patch: Partial<CollectionChartQuery>) => {
    setPreview(false);
    setQuery((current) => ({ ...current, ...patch }));
  };
  const problem =
    source === 'collection'
      ? chartQueryProblem(query)
      : api.chart.trim()
        ? api.collection && !api.recordId
          ? 'A collection chart is computed for one record: give its id.'
          : undefined
        : 'Give the name of the chart declared in the agent.';
  const chart = useMemo(
    () =>
      source === 'collection'
        ? ({ source, query: statsBody(query) as unknown as CollectionChartQuery } as const)
        : ({
            source,
            chart: api.chart.trim(),
            kind: api.kind as ChartKind,
            ...(api.collection ? { collection: api.collection, recordId: api.recordId } : {}),
          } as const),
    [source, query, api],
  );

  const groupable =
    query.type === 'Line' ? fields.filter((f) => DATES.has(typeName(f.type))) : fields;
  const relationTarget = collections.find(
    (c) =>
      c.name ===
      targetCollection(
        toMany.find((f) => f.field === query.relationshipFieldName) ?? { field: '', type: '' },
      ),
  );
  const aggregatable =
    query.type === 'Leaderboard'
      ? (relationTarget?.fields ?? []).filter((f) => NUMERIC.has(typeName(f.type)))
      : fields.filter((f) => NUMERIC.has(typeName(f.type)));

  return (
    <Modal opened={opened} onClose={onClose} title="Add a chart" size="lg">
      <Stack>
        <SegmentedControl
          value={source}
          onChange={(value) => {
            setPreview(false);
            setSource(value as 'collection' | 'api');
          }}
          data={[
            { value: 'collection', label: 'Build from a collection' },
            { value: 'api', label: "From the agent's code" },
          ]}
        />
        <Group grow>
          <TextInput
            label="Title"
            required
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
          />
          <Select
            label="Width"
            value={width}
            onChange={(value) => setWidth(value ?? '6')}
            allowDeselect={false}
            data={[
              { value: '3', label: 'Quarter' },
              { value: '4', label: 'Third' },
              { value: '6', label: 'Half' },
              { value: '8', label: 'Two thirds' },
              { value: '12', label: 'Full' },
            ]}
          />
        </Group>
        {source === 'collection' ? (
          <>
            <Group grow>
              <Select
                label="Chart type"
                value={query.type}
                allowDeselect={false}
                data={TYPES}
                onChange={(value) => set({ type: value as CollectionChartType })}
              />
              <Select
                label="Collection"
                searchable
                value={query.sourceCollectionName || null}
                data={collections.map((c) => ({ value: c.name, label: humanize(c.name) }))}
                onChange={(value) =>
                  set({
                    sourceCollectionName: value ?? '',
                    aggregateFieldName: null,
                    groupByFieldName: undefined,
                    relationshipFieldName: undefined,
                    labelFieldName: undefined,
                  })
                }
              />
            </Group>
            {query.type === 'Leaderboard' && (
              <Group grow>
                <Select
                  label="Ranked through (to-many relation)"
                  value={query.relationshipFieldName ?? null}
                  data={toMany.map((f) => ({ value: f.field, label: humanize(f.field) }))}
                  onChange={(value) =>
                    set({ relationshipFieldName: value ?? undefined, aggregateFieldName: null })
                  }
                />
                <Select
                  label="Label field"
                  value={query.labelFieldName ?? null}
                  data={fields.map((f) => ({ value: f.field, label: humanize(f.field) }))}
                  onChange={(value) => set({ labelFieldName: value ?? undefined })}
                />
                <NumberInput
                  label="Rows"
                  min={1}
                  max={100}
                  value={query.limit ?? ''}
                  onChange={(value) =>
                    set({ limit: typeof value === 'number' ? value : undefined })
                  }
                />
              </Group>
            )}
            <Group grow>
              <Select
                label="Aggregate"
                value={query.aggregator}
                allowDeselect={false}
                data={['Count', 'Sum', 'Avg', 'Max', 'Min']}
                onChange={(value) =>
                  set({
                    aggregator: value as Aggregator,
                    ...(value === 'Count' ? { aggregateFieldName: null } : {}),
                  })
                }
              />
              <Select
                label="Field"
                disabled={query.aggregator === 'Count'}
                placeholder={query.aggregator === 'Count' ? 'records' : 'Choose a number field'}
                value={query.aggregateFieldName}
                data={aggregatable.map((f) => ({ value: f.field, label: humanize(f.field) }))}
                onChange={(value) => set({ aggregateFieldName: value })}
              />
            </Group>
            {(query.type === 'Pie' || query.type === 'Line') && (
              <Group grow>
                <Select
                  label={query.type === 'Line' ? 'Date field' : 'Group by'}
                  value={query.groupByFieldName ?? null}
                  data={groupable.map((f) => ({ value: f.field, label: humanize(f.field) }))}
                  onChange={(value) => set({ groupByFieldName: value ?? undefined })}
                />
                {query.type === 'Line' && (
                  <Select
                    label="Time range"
                    value={query.timeRange ?? null}
                    data={['Day', 'Week', 'Month', 'Quarter', 'Year']}
                    onChange={(value) => set({ timeRange: (value ?? undefined) as TimeRange })}
                  />
                )}
              </Group>
            )}
            {query.type === 'Objective' && (
              <NumberInput
                label="Objective"
                min={0}
                value={query.objective ?? ''}
                onChange={(value) =>
                  set({ objective: typeof value === 'number' ? value : undefined })
                }
              />
            )}
          </>
        ) : (
          <>
            <Group grow>
              <TextInput
                label="Chart name"
                description="As declared with addChart in the agent"
                value={api.chart}
                onChange={(e) => {
                  setPreview(false);
                  setApi({ ...api, chart: e.currentTarget.value });
                }}
              />
              <Select
                label="Drawn as"
                value={api.kind}
                allowDeselect={false}
                data={CHART_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
                onChange={(value) => {
                  setPreview(false);
                  setApi({ ...api, kind: value ?? 'value' });
                }}
              />
            </Group>
            <Group grow>
              <Select
                label="Collection (collection charts only)"
                clearable
                value={api.collection || null}
                data={collections.map((c) => ({ value: c.name, label: humanize(c.name) }))}
                onChange={(value) => {
                  setPreview(false);
                  setApi({ ...api, collection: value ?? '' });
                }}
              />
              <TextInput
                label="Record id"
                disabled={!api.collection}
                value={api.recordId}
                onChange={(e) => {
                  setPreview(false);
                  setApi({ ...api, recordId: e.currentTarget.value });
                }}
              />
            </Group>
          </>
        )}
        {problem && <Alert color="gray">{problem}</Alert>}
        {preview && !problem && (
          <Paper withBorder p="sm" aria-label="Preview">
            <ChartView chart={chart} height={200} />
          </Paper>
        )}
        <Group justify="flex-end">
          <Button variant="default" disabled={!!problem} onClick={() => setPreview(true)}>
            Preview
          </Button>
          <Button
            disabled={!!problem || !title.trim()}
            onClick={() => {
              onAdd({
                id: `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
                title: title.trim(),
                width: Number(width),
                chart,
              });
              setTitle('');
              setPreview(false);
            }}
          >
            Add to the dashboard
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
