import { randomUUID } from 'node:crypto';

/** The `stats` resource every computed chart is wrapped in (§10.1). */
export function statsEnvelope(value: unknown): {
  data: { id: string; type: 'stats'; attributes: { value: unknown } };
} {
  return { data: { id: randomUUID(), type: 'stats', attributes: { value } } };
}
