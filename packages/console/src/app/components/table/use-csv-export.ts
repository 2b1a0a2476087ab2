/**
 * The table's CSV export: streamed to disk by the service worker when there is one
 * (download.ts), else read in memory and saved; its progress in words while it runs.
 */
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import {
  humanize,
  type AgentClient,
  type AgentSchema,
  type ListParams,
  type SchemaCollection,
} from '../../../protocol';
import { relationProjection, rememberDenied, type ListSource } from '../../data';
import { recordExport } from '../../test-hooks';
import { csvFilename, exportableColumns, exportProgress } from './csv-export';

export function saveBlob(blob: Blob, filename: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

export function useCsvExport({
  client,
  schema,
  collection,
  visible,
  listParams,
  related,
}: {
  client: AgentClient;
  schema: AgentSchema;
  collection: SchemaCollection;
  visible: string[];
  listParams: ListParams;
  related: ListSource['related'];
}) {
  const [exporting, setExporting] = useState<string>();
  const exportCsv = async () => {
    const exportable = exportableColumns(collection, visible);
    const relationFields = relationProjection(schema, collection, exportable);
    const url = client.csvUrl(
      collection.name,
      { ...listParams, fields: exportable, relationFields },
      exportable.map(humanize),
      collection.name,
      related,
    );
    setExporting('Starting…');
    const filename = csvFilename(collection.name, new Date());
    const progress = (bytes: number) => setExporting(exportProgress(bytes));
    try {
      // The streaming download (a service worker) loads with the first export.
      const { downloadWorker, streamDownload } = await import('../../download');
      const worker = await downloadWorker();
      if (worker) {
        recordExport('stream');
        await streamDownload(worker, {
          url,
          token: client.token(),
          filename,
          onProgress: progress,
        });
        return;
      }
      recordExport('memory');
      saveBlob(await client.downloadCsv(url, progress), filename);
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
  return { exporting, exportCsv };
}
