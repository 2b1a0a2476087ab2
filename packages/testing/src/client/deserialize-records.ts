/** A record as the test client returns it: attributes, to-one relations as nested objects. */
export type ClientRecord = Record<string, unknown>;

interface Resource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { type: string; id: string } | null }>;
}

interface Document {
  data: Resource | Resource[] | null;
  included?: Resource[];
}

/**
 * Turns a JSON:API document into plain records: attributes keep their names (flattened fields
 * such as `address@@@city` included), and each linked to-one relation becomes a nested record
 * read from `included` (`null` when unlinked).
 */
export function deserializeDocument(document: Document): ClientRecord[] {
  const included = new Map<string, Resource>();
  for (const resource of document.included ?? [])
    included.set(`${resource.type}|${resource.id}`, resource);
  const toRecord = (resource: Resource, depth: number): ClientRecord => {
    const record: ClientRecord = { ...(resource.attributes ?? {}) };
    for (const [name, relationship] of Object.entries(resource.relationships ?? {})) {
      if (!relationship || !('data' in relationship)) continue;
      const linkage = relationship.data;
      if (linkage === null || linkage === undefined) {
        record[name] = null;
        continue;
      }
      const target = included.get(`${linkage.type}|${linkage.id}`);
      record[name] = target && depth < 5 ? toRecord(target, depth + 1) : { id: linkage.id };
    }
    return record;
  };
  const data = document.data;
  if (data === null) return [];
  return (Array.isArray(data) ? data : [data]).map((resource) => toRecord(resource, 0));
}
