import { createAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';

/** Record history: every create, update, delete and action run, with the values before/after. */
export async function startWithHistory(config: {
  databaseUrl: string;
  serverUrl: string;
  schemaPath: string;
}) {
  const agent = createAgent({
    authSecret: 'a-long-random-string',
    envSecret: 'ab'.repeat(32),
    serverUrl: config.serverUrl,
    schemaPath: config.schemaPath,
    loggerLevel: 'Warn',
    // The table is created at start in the data source's database; rows are written in the
    // same transaction as the change they describe.
    auditTrail: { table: 'canopy_history', redact: ['password_hash'] },
  })
    .addDataSource(createSqlDataSource(config.databaseUrl))
    .mountOnStandaloneServer(0, '127.0.0.1');
  await agent.start();
  return agent;
}

/** One history entry as the `_audit-trail` routes answer it. */
export interface HistoryEntry {
  id: number;
  timestamp: string;
  operation: 'create' | 'update' | 'delete' | 'action' | 'action_failed';
  recordId: string; // '' for an action run on no record
  userId: number | null;
  userEmail: string | null;
  actionName: string | null;
  correlationKey: string;
  previousValues: Record<string, unknown>; // {} for a create; an action's form
  newValues: Record<string, unknown>; // {} for a delete; an action's answer summary
}

/** Reads a record's history as the user whose session token is `token`. */
export async function readHistory(origin: string, token: string, collection: string, id: string) {
  const read = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${origin}/forest/_audit-trail/${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  const entries = await read<HistoryEntry[]>(`${collection}/${id}?page[size]=10`); // newest first
  const oldest = entries[entries.length - 1] as HistoryEntry;
  return {
    entries,
    // The record right after its oldest recorded change.
    asItWas: await read<Record<string, unknown>>(
      `${collection}/${id}/state?at=${oldest.timestamp}`,
    ),
    // Every entry of the request that made that change (its x-forest-correlation-id), on any
    // record: Canopy's `acrossRecords` (without it, the entries of this record, as the reference).
    sameRequest: await read<HistoryEntry[]>(
      `correlation/${oldest.correlationKey}?collection=${collection}&recordId=${id}&acrossRecords=true`,
    ),
  };
}
