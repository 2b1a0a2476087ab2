/**
 * The import under way (a progress bar, cancel) and, once it ends, its summary: created, failed
 * with the reason of each by line (the dry run's, then the agent's answers), and the failed rows
 * to download.
 */
import {
  Alert,
  Anchor,
  Button,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ProblemTable, type LineProblem } from './ProblemTable';
import type { ImportOutcome } from './run-import';
import type { DryRun } from './use-csv-import';
import { formatNumber } from '../../components/format';

function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Stack gap={0} data-testid={`import-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Text size="xl" fw={700} c={color}>
        {formatNumber(value)}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

export function RunStep({
  dryRun,
  progress,
  outcome,
  listUrl,
  name,
  onCancel,
  onDownload,
  onAgain,
}: {
  dryRun: DryRun;
  progress: { done: number; failed: number };
  outcome?: ImportOutcome;
  listUrl: string;
  name: string;
  onCancel(): void;
  onDownload(): void;
  onAgain(): void;
}) {
  const total = dryRun.ready.length;
  if (!outcome) {
    return (
      <Stack gap="sm">
        <Progress
          value={total ? (progress.done / total) * 100 : 100}
          size="lg"
          animated
          aria-label="Import progress"
        />
        <Group justify="space-between">
          <Text size="sm" aria-live="polite">
            {formatNumber(progress.done)} of {formatNumber(total)} records sent
            {progress.failed ? `, ${formatNumber(progress.failed)} refused` : ''}
          </Text>
          <Button variant="default" color="red" onClick={onCancel}>
            Cancel the import
          </Button>
        </Group>
      </Stack>
    );
  }
  const problems: LineProblem[] = [
    ...dryRun.invalid.flatMap((row) =>
      row.problems.map((problem) => ({ line: row.line, ...problem })),
    ),
    ...outcome.failed.map((failure) => ({
      line: failure.line,
      message: `Refused by the agent: ${failure.message}`,
    })),
  ].sort((a, b) => a.line - b.line);
  const failed = dryRun.invalid.length + outcome.failed.length;
  return (
    <Stack gap="sm" data-testid="import-summary">
      <Title order={3}>{outcome.stopped ? 'Import stopped' : 'Import finished'}</Title>
      {outcome.stopped && (
        <Alert color="yellow" role="status">
          {outcome.stopped === 'cancelled'
            ? 'You cancelled the import: the records below were not sent.'
            : `The import stopped: ${outcome.stopped}`}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3 }} maw={480}>
        <Figure label="Created" value={outcome.created} color="teal" />
        <Figure label="Failed" value={failed} color={failed ? 'red' : undefined} />
        {outcome.notSent > 0 && <Figure label="Not sent" value={outcome.notSent} />}
      </SimpleGrid>
      {problems.length > 0 && <ProblemTable problems={problems} label="Records not imported" />}
      <Group gap="xs">
        {failed + outcome.notSent > 0 && (
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={onDownload}>
            Download the failed rows (CSV)
          </Button>
        )}
        <Button variant="default" onClick={onAgain}>
          Import another file
        </Button>
        <Anchor component={Link} to={listUrl}>
          Back to {name}
        </Anchor>
      </Group>
    </Stack>
  );
}
