/**
 * Loading what a revert needs (each record's current values) and sending its writes: ordinary
 * `PUT`s by id through the agent (permissions, hooks and validation apply), all under one
 * correlation of kind `revert` (`x-forest-correlation-id`, `x-canopy-correlation-kind`, agent
 * protocol §1.6), a few at a time.
 */
import { AgentError, type AgentClient } from '../../../protocol';
import { recordKey, type RevertTarget, type RevertWrite } from '../../../protocol/revert-plan';

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

/** The current values of every record of `targets` (`null`: gone or out of scope). */
export async function loadCurrentValues(
  client: AgentClient,
  targets: readonly RevertTarget[],
): Promise<Map<string, Record<string, unknown> | null>> {
  const current = new Map<string, Record<string, unknown> | null>();
  await eachLimited(targets, async (target) => {
    const key = recordKey(target.collection, target.recordId);
    try {
      current.set(key, (await client.get(target.collection, target.recordId))?.values ?? null);
    } catch (error) {
      if (error instanceof AgentError && (error.status === 404 || error.status === 403)) {
        current.set(key, null);
      } else throw error;
    }
  });
  return current;
}

/** How one record's write went. */
export interface RevertOutcome {
  write: RevertWrite;
  status: 'done' | 'approval' | 'gone' | 'failed';
  message?: string;
}

/** Whether an agent error says the change needs an approval first (agent protocol §9.7). */
export function needsApproval(error: unknown): boolean {
  return (
    error instanceof AgentError &&
    (/approval/i.test(error.errorName) || /requires? (to be )?approv/i.test(error.message))
  );
}

/** Sends the writes under one new correlation of kind `revert`; one outcome per write. */
export async function applyRevert(
  client: AgentClient,
  writes: readonly RevertWrite[],
  onProgress?: (done: number) => void,
): Promise<{ correlationId: string; outcomes: RevertOutcome[] }> {
  const correlationId = crypto.randomUUID();
  const reverting = client.withHeaders({
    'x-forest-correlation-id': correlationId,
    'x-canopy-correlation-kind': 'revert',
  });
  const outcomes: RevertOutcome[] = [];
  await eachLimited(writes, async (write) => {
    try {
      const record = await reverting.update(write.collection, write.recordId, write.values);
      outcomes.push({ write, status: record ? 'done' : 'gone' });
    } catch (error) {
      outcomes.push({
        write,
        status: needsApproval(error) ? 'approval' : 'failed',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    onProgress?.(outcomes.length);
  });
  return { correlationId, outcomes };
}
