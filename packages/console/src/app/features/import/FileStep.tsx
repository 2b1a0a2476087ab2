/** The import's first step: a CSV file, chosen or dropped. */
import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { MAX_IMPORT_ROWS } from './csv-parse';
import { formatNumber } from '../../components/format';

export function FileStep({
  name,
  error,
  onFile,
}: {
  /** The collection, in words (`reviews`). */
  name: string;
  error?: string;
  onFile(file: File): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <Stack gap="sm">
      <Paper
        withBorder
        radius="md"
        p="xl"
        data-testid="import-drop-zone"
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined,
        }}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          const file = event.dataTransfer.files[0];
          if (file) onFile(file);
        }}
      >
        <Stack align="center" gap="xs">
          <IconFileTypeCsv size={40} aria-hidden />
          <Text fw={500}>Drop a CSV file here, or choose one</Text>
          <Text size="sm" c="dimmed" ta="center">
            One {name.replace(/s$/, '')} per line under a header line naming the columns (comma,
            semicolon or tab separated, UTF-8), up to {formatNumber(MAX_IMPORT_ROWS)} records.
            Nothing is created before you have checked the file.
          </Text>
          <Button onClick={() => input.current?.click()}>Choose a CSV file</Button>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv,text/plain"
            aria-label="CSV file"
            hidden
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              event.currentTarget.value = '';
              if (file) onFile(file);
            }}
          />
        </Stack>
      </Paper>
      {error && (
        <Alert color="red" title="This file cannot be imported" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
