/**
 * Record history (agent-http-protocol §13.1): the shape of one entry as an agent started with an
 * audit trail answers it on `GET /forest/_audit-trail/…`. The agent writes it, and the console and
 * the test client read it, so the three share this one description of the wire.
 */

/** What an entry records: a write, or an action run (that succeeded or was rolled back). */
export type HistoryOperation = 'create' | 'update' | 'delete' | 'action' | 'action_failed';

/** One history entry: who changed the record, when, how, and its values before and after. */
export interface HistoryEntry<Values = Record<string, unknown>> {
  id: number;
  timestamp: string;
  operation: HistoryOperation;
  collection: string;
  recordId: string | null;
  userId: number | null;
  userFirstName: string | null;
  userLastName: string | null;
  userEmail: string | null;
  actionName: string | null;
  /** Shared by the entries of one request (a bulk update, an action writing several records). */
  correlationKey: string;
  /**
   * Canopy's addition: what the correlation was when the request said so
   * (`x-canopy-correlation-kind`, e.g. `revert`); `null` otherwise. Absent from older agents.
   */
  correlationKind?: string | null;
  previousValues: Values | null;
  newValues: Values | null;
  status: 'pending' | 'done';
}
