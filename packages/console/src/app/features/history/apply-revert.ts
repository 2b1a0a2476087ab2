/**
 * Loading what a revert needs (each record's current values and tag) and sending its writes:
 * ordinary `PUT`s by id, `DELETE`s of the records the reverted change created and `POST`s of
 * those it deleted, through the agent (permissions, hooks and validation apply), all under one
 * correlation of kind `revert` (`x-forest-correlation-id`, `x-canopy-correlation-kind`, agent
 * protocol §1.6), each update with `If-Match` (§8.5), a few at a time.
 */
import { AgentError, type AgentClient } from '../../../protocol';
import { recordKey, type RevertWrite } from '../../../protocol/revert-plan';

/** Calls in flight at once (the agent serves others too). */
const CONCURRENCY = 6;

async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

/** The records of a revert as they are now: values (`null`: gone or out of scope) and tags. */
export interface CurrentRecords {
  values: Map<string, Record<string, unknown> | null>;
  /** Each record's entity tag (agent protocol §8.3), sent as `If-Match` with its write. */
  tags: Map<string, string>;
}

/** The current values and tag of every record of `targets`. */
export async function loadCurrentValues(
  client: AgentClient,
  targets: readonly { collection: string; recordId: string }[],
): Promise<CurrentRecords> {
  const current: CurrentRecords = { values: new Map(), tags: new Map() };
  await eachLimited(targets, async (target) => {
    const key = recordKey(target.collection, target.recordId);
    try {
      const { record, etag } = await client.getTagged(target.collection, target.recordId);
      current.values.set(key, record?.values ?? null);
      if (etag) current.tags.set(key, etag);
    } catch (error) {
      if (error instanceof AgentError && (error.status === 404 || error.status === 403)) {
        current.values.set(key, null);
      } else throw error;
    }
  });
  return current;
}

/** How one record's write went. */
export interface RevertOutcome {
  write: RevertWrite;
  /** `stale`: the record changed between the preview and the write, which was not made. */
  status: 'done' | 'approval' | 'gone' | 'stale' | 'failed';
  message?: string;
  /** A re-created record's id (a new one when the key is not writable). */
  createdId?: string;
}

/** Whether an agent error says the change needs an approval first (agent protocol §9.7). */
export function needsApproval(error: unknown): boolean {
  return (
    error instanceof AgentError &&
    (/approval/i.test(error.errorName) || /requires? (to be )?approv/i.test(error.message))
  );
}

/**
 * Sends the writes under one new correlation of kind `revert`; one outcome per write. A write
 * carries its record's tag of the preview (`If-Match`): a record changed since is not written.
 */
export async function applyRevert(
  client: AgentClient,
  writes: readonly RevertWrite[],
  tags: ReadonlyMap<string, string> = new Map(),
  onProgress?: (done: number) => void,
): Promise<{ correlationId: string; outcomes: RevertOutcome[] }> {
  const correlationId = crypto.randomUUID();
  const correlation = {
    'x-forest-correlation-id': correlationId,
    'x-canopy-correlation-kind': 'revert',
  };
  const outcomes: RevertOutcome[] = [];
  await eachLimited(writes, async (write) => {
    const tag = tags.get(recordKey(write.collection, write.recordId));
    try {
      if (write.kind === 'delete') {
        await client.withHeaders(correlation).remove(write.collection, { ids: [write.recordId] });
        outcomes.push({ write, status: 'done' });
      } else if (write.kind === 'create') {
        const record = await client
          .withHeaders(correlation)
          .create(write.collection, write.values, write.toOne);
        outcomes.push({ write, status: 'done', createdId: record.id });
      } else {
        const reverting = client.withHeaders(
          tag ? { ...correlation, 'if-match': tag } : correlation,
        );
        const record = await reverting.update(write.collection, write.recordId, write.values);
        outcomes.push({ write, status: record ? 'done' : 'gone' });
      }
    } catch (error) {
      const stale = error instanceof AgentError && error.status === 412;
      outcomes.push({
        write,
        status: stale ? 'stale' : needsApproval(error) ? 'approval' : 'failed',
        // A stale record is explained by its group in the results.
        ...(stale ? {} : { message: error instanceof Error ? error.message : String(error) }),
      });
    }
    onProgress?.(outcomes.length);
  });
  return { correlationId, outcomes };
}
