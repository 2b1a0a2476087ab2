import '@mantine/charts/styles.css';
import './insights.css';
import { LineChart, PieChart } from '@mantine/charts';
import {
  Alert,
  Badge,
  Code,
  Group,
  Progress,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  fitLabel,
  humanize,
  kindOfQuery,
  toChartData,
  type ChartData,
  type ChartSource,
} from '../../../protocol';
import { useSession } from '../../session';
import { formatNumber, userContext } from '../../components/format';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6'];
/** A value on a chart's axis or tooltip (recharts passes more arguments: not a format context). */
const chartNumber = (value: number) => formatNumber(value);
// Numbers read as everywhere in the console (the user's locale); a percentage too.
const percent = new Intl.NumberFormat(userContext.locale, {
  style: 'percent',
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
});

/** Computes a chart on the agent, in the user's time zone (the client sends it). */
export function useChart(chart: ChartSource) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['chart', client.baseUrl, chart],
    queryFn: async (): Promise<ChartData> => {
      if (chart.source === 'collection') {
        return toChartData(
          kindOfQuery(chart.query),
          await client.stats(chart.query),
          chart.query.objective,
        );
      }
      return toChartData(chart.kind, await client.apiChart(chart));
    },
    retry: false,
  });
}

/** The kinds drawn as one figure: their card is only as tall as the figure. */
const FIGURES = new Set<ChartData['kind']>(['value', 'percentage', 'objective', 'facts']);

/** One chart: fetched from the agent, then drawn for its kind. */
export function ChartView({ chart, height = 220 }: { chart: ChartSource; height?: number }) {
  const result = useChart(chart);
  if (result.isPending) return <Skeleton h={72} aria-label="Loading the chart" />;
  if (result.isError) {
    return (
      <Alert color="red" title="This chart could not be computed">
        {result.error.message}
      </Alert>
    );
  }
  return (
    <ChartBody data={result.data} height={FIGURES.has(result.data.kind) ? undefined : height} />
  );
}

/** Draws a chart's data; `height` is the plot's (figures take only the room they need). */
export function ChartBody({ data, height = 220 }: { data: ChartData; height?: number }) {
  switch (data.kind) {
    case 'value':
      return (
        <Stack gap={4} data-chart-kind="value">
          <Text fz={32} fw={700} lh={1.1} data-testid="chart-value">
            {formatNumber(data.current)}
          </Text>
          {data.previous !== undefined && (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                previous period: {formatNumber(data.previous)}
              </Text>
              {data.change !== undefined && (
                <Badge color={data.change >= 0 ? 'teal' : 'red'} variant="light">
                  {percent.format(data.change)}
                </Badge>
              )}
            </Group>
          )}
        </Stack>
      );
    case 'percentage':
      return (
        <Stack gap={4} data-chart-kind="percentage">
          <Text fz={32} fw={700} lh={1.1} data-testid="chart-value">
            {formatNumber(data.value)} %
          </Text>
        </Stack>
      );
    case 'objective':
      return (
        <Stack gap="xs" data-chart-kind="objective">
          <Text fz={28} fw={700} lh={1.1} data-testid="chart-value">
            {formatNumber(data.value)}{' '}
            <Text span size="md" c="dimmed" fw={400}>
              of {formatNumber(data.objective)}
            </Text>
          </Text>
          <Progress
            value={Math.min(100, data.ratio * 100)}
            size="lg"
            color={data.ratio >= 1 ? 'teal' : 'blue'}
            aria-label={`${Math.round(data.ratio * 100)} % of the objective`}
          />
          <Text size="sm" c="dimmed">
            {percent.format(data.ratio).replace(/^\+/, '')} of the objective
          </Text>
        </Stack>
      );
    case 'distribution':
      return data.rows.length === 0 ? (
        <Empty height={height} />
      ) : (
        <Group h={height} justify="center" data-chart-kind="distribution" wrap="nowrap">
          {/* The legend beside it says the same in text: the drawing is hidden from screen
              readers (Recharts' sectors are unnamed images) and taken out of the tab order. */}
          <div aria-hidden="true">
            <PieChart
              size={Math.min(height - 20, 180)}
              pieProps={{ rootTabIndex: -1 }}
              withTooltip
              tooltipDataSource="segment"
              valueFormatter={chartNumber}
              data={data.rows.map((row, index) => ({
                name: row.key,
                value: row.value,
                color: COLORS[index % COLORS.length]!,
              }))}
            />
          </div>
          <Stack gap={2}>
            {data.rows.slice(0, 8).map((row, index) => (
              <Group key={row.key} gap={6} wrap="nowrap">
                <Badge size="xs" circle color={COLORS[index % COLORS.length]} />
                <Text size="sm">
                  {row.key}: <b>{formatNumber(row.value)}</b>
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      );
    case 'leaderboard':
      return data.rows.length === 0 ? (
        <Empty height={height} />
      ) : (
        <Leaderboard rows={data.rows} height={height} />
      );
    case 'time':
    case 'multiple-time':
      // One line (`time`), or one per series with a legend (`multiple-time`).
      if (data.rows.length === 0) return <Empty height={height} />;
      return (
        <div data-chart-kind={data.kind}>
          <LineChart
            h={height}
            data={data.rows}
            dataKey="label"
            curveType="monotone"
            valueFormatter={chartNumber}
            {...(data.kind === 'time'
              ? {
                  series: [{ name: 'value', color: 'blue.6', label: 'Value' }],
                  withDots: data.rows.length < 40,
                }
              : {
                  withLegend: true,
                  connectNulls: true,
                  series: data.series.map((name, index) => ({
                    name,
                    color: COLORS[index % COLORS.length]!,
                  })),
                })}
          />
        </div>
      );
    case 'facts':
      return (
        <dl className="chart-facts" data-chart-kind="facts">
          {data.rows.map((row) => (
            <div key={row.key}>
              <dt>{humanize(row.key)}</dt>
              <dd data-testid="chart-value">
                {typeof row.value === 'number' ? formatNumber(row.value) : String(row.value ?? '—')}
              </dd>
            </div>
          ))}
        </dl>
      );
    case 'smart':
      return (
        <ScrollArea h={height} data-chart-kind="smart">
          <Code block>{JSON.stringify(data.json, null, 2)}</Code>
        </ScrollArea>
      );
  }
}

/**
 * A ranking as bars in plain HTML: each label fits its column (an e-mail keeps its local part),
 * with the full text on hover and for screen readers.
 */
function Leaderboard({ rows, height }: { rows: { key: string; value: number }[]; height: number }) {
  const top = Math.max(...rows.map((row) => row.value), 0) || 1;
  return (
    <ScrollArea.Autosize mah={height} data-chart-kind="leaderboard">
      <ol className="chart-leaderboard">
        {rows.map((row, index) => (
          <li key={`${row.key}-${index}`}>
            <span className="chart-leaderboard-label" title={row.key} aria-label={row.key}>
              {fitLabel(row.key, 22)}
            </span>
            <span className="chart-leaderboard-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(0, (row.value / top) * 100)}%` }} />
            </span>
            <span className="chart-leaderboard-value">{formatNumber(row.value)}</span>
          </li>
        ))}
      </ol>
    </ScrollArea.Autosize>
  );
}

function Empty({ height }: { height: number }) {
  return (
    <Stack h={height} justify="center" align="center">
      <Text c="dimmed" size="sm">
        No data for this chart.
      </Text>
    </Stack>
  );
}
