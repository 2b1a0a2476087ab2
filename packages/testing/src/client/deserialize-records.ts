import { type AgentRecord, decodeList, type JsonApiDocument } from '@canopy/platform-protocol';

/** A record as the test client returns it: attributes, to-one relations as nested objects. */
export type ClientRecord = Record<string, unknown>;

/**
 * A decoded record as tests read it: its attributes under their names (flattened fields such as
 * `address@@@city` included), each linked to-one relation as a nested record (`null` when
 * unlinked, `{ id }` when the document did not include the linked record's attributes).
 */
function clientRecord(record: AgentRecord): ClientRecord {
  const result: ClientRecord = { ...record.values };
  for (const [name, linked] of Object.entries(record.toOne)) {
    if (linked === null) result[name] = null;
    else if (Object.keys(linked.values).length === 0) result[name] = { id: linked.id };
    else result[name] = clientRecord(linked);
  }
  return result;
}

/** Turns a JSON:API document into plain records (the shared decoder of platform-protocol). */
export function deserializeDocument(document: JsonApiDocument): ClientRecord[] {
  return decodeList(document).map(clientRecord);
}
