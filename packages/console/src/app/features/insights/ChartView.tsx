import '@mantine/charts/styles.css';
import { BarChart, LineChart, PieChart } from '@mantine/charts';
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
import { kindOfQuery, toChartData, type ChartData, type ChartSource } from '../../../protocol';
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

/** One chart: fetched from the agent, then drawn for its kind. */
export function ChartView({ chart, height = 220 }: { chart: ChartSource; height?: number }) {
  const result = useChart(chart);
  if (result.isPending) return <Skeleton h={height} aria-label="Loading the chart" />;
  if (result.isError) {
    return (
      <Alert color="red" title="This chart could not be computed">
        {result.error.message}
      </Alert>
    );
  }
  return <ChartBody data={result.data} height={height} />;
}

export function ChartBody({ data, height }: { data: ChartData; height: number }) {
  switch (data.kind) {
    case 'value':
      return (
        <Stack gap={4} h={height} justify="center" data-chart-kind="value">
          <Text fz={40} fw={700} lh={1} data-testid="chart-value">
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
        <Stack gap={4} h={height} justify="center" data-chart-kind="percentage">
          <Text fz={40} fw={700} lh={1} data-testid="chart-value">
            {formatNumber(data.value)} %
          </Text>
        </Stack>
      );
    case 'objective':
      return (
        <Stack gap="xs" h={height} justify="center" data-chart-kind="objective">
          <Text fz={32} fw={700} lh={1} data-testid="chart-value">
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
          <PieChart
            size={Math.min(height - 20, 180)}
            withTooltip
            tooltipDataSource="segment"
            valueFormatter={chartNumber}
            data={data.rows.map((row, index) => ({
              name: row.key,
              value: row.value,
              color: COLORS[index % COLORS.length]!,
            }))}
          />
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
        <ScrollArea h={height} data-chart-kind="leaderboard">
          <BarChart
            h={Math.max(height - 10, data.rows.length * 28)}
            data={data.rows.map((row) => ({ key: row.key, value: row.value }))}
            dataKey="key"
            orientation="vertical"
            valueFormatter={chartNumber}
            yAxisProps={{ width: 110 }}
            series={[{ name: 'value', color: 'blue.6', label: 'Value' }]}
          />
        </ScrollArea>
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
    case 'smart':
      return (
        <ScrollArea h={height} data-chart-kind="smart">
          <Code block>{JSON.stringify(data.json, null, 2)}</Code>
        </ScrollArea>
      );
  }
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
