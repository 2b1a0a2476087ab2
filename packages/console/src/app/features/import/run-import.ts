/**
 * The import itself: one create call per record (the agent's ordinary `POST /forest/{c}`), a few
 * at a time so a thousand records take seconds without flooding the agent. Cancelling stops
 * sending; the calls under way finish. A refusal that would repeat for every record (the right to
 * create was withdrawn, the agent cannot be reached) stops the run as well.
 */
export interface ImportFailure {
  line: number;
  message: string;
}

export interface ImportOutcome {
  created: number;
  failed: ImportFailure[];
  /** Records never sent (cancelled, or stopped by `fatal`). */
  notSent: number;
  /** Why the run stopped before the end, when it did. */
  stopped?: 'cancelled' | string;
}

export interface ImportRunOptions<Row extends { line: number }> {
  rows: readonly Row[];
  create(row: Row): Promise<unknown>;
  /** How many calls may be under way at once. */
  concurrency?: number;
  signal?: AbortSignal;
  /** The agent's refusal in words. */
  describe(error: unknown): string;
  /** Whether this refusal stops the whole import. */
  fatal?(error: unknown): boolean;
  onProgress?(done: number, failed: number): void;
}

export const IMPORT_CONCURRENCY = 4;

export async function runImport<Row extends { line: number }>(
  options: ImportRunOptions<Row>,
): Promise<ImportOutcome> {
  const { rows, signal } = options;
  const failed: ImportFailure[] = [];
  let created = 0;
  let next = 0;
  let stopped: string | undefined;
  const worker = async () => {
    while (next < rows.length && !signal?.aborted && stopped === undefined) {
      const row = rows[next++]!;
      try {
        await options.create(row);
        created += 1;
      } catch (error) {
        const message = options.describe(error);
        failed.push({ line: row.line, message });
        if (options.fatal?.(error)) stopped ??= message;
      }
      options.onProgress?.(created + failed.length, failed.length);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? IMPORT_CONCURRENCY, rows.length));
  await Promise.all(Array.from({ length: workers }, worker));
  failed.sort((a, b) => a.line - b.line);
  return {
    created,
    failed,
    notSent: rows.length - created - failed.length,
    stopped: stopped ?? (signal?.aborted && next < rows.length ? 'cancelled' : undefined),
  };
}
