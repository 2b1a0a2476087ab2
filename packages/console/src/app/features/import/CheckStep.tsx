/**
 * The dry run's result: how many records are ready, and each problem by the line of the file.
 * Only the ready records are sent; those with problems can be downloaded to be fixed.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ProblemTable } from './ProblemTable';
import type { DryRun } from './use-csv-import';
import { formatNumber } from '../../components/format';

const count = (n: number, word: string) =>
  `${formatNumber(n)} ${n === 1 ? word.replace(/s$/, '') : word}`;

export function CheckStep({
  dryRun,
  name,
  onBack,
  onDownload,
  onImport,
}: {
  dryRun: DryRun;
  /** The collection, in words (`reviews`). */
  name: string;
  onBack(): void;
  onDownload(): void;
  onImport(): void;
}) {
  const { ready, invalid, notes } = dryRun;
  const problems = invalid.flatMap((row) =>
    row.problems.map((problem) => ({ line: row.line, ...problem })),
  );
  return (
    <Stack gap="sm">
      <Alert
        color={invalid.length ? 'yellow' : 'teal'}
        title="Dry run: nothing was created yet"
        data-testid="import-dry-run"
      >
        {count(ready.length, 'records')} {ready.length === 1 ? 'is' : 'are'} ready to import;{' '}
        {invalid.length === 0
          ? 'no record has a problem.'
          : `${count(invalid.length, 'records')} ${invalid.length === 1 ? 'has' : 'have'} problems and will not be imported.`}
      </Alert>
      {notes.map((note) => (
        <Text key={note} size="sm" c="dimmed">
          {note}
        </Text>
      ))}
      {problems.length > 0 && (
        <ProblemTable problems={problems} label="Problems found by the dry run" />
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back to the columns
        </Button>
        <Group gap="xs">
          {invalid.length > 0 && (
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={onDownload}>
              Download the records with problems
            </Button>
          )}
          <Button onClick={onImport} disabled={ready.length === 0}>
            Import {count(ready.length, name)}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
