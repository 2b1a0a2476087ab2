/**
 * The agent's JSON:API documents (docs/agent-http-protocol.md §7) decoded into plain records, and
 * the resource bodies of create and update: one decoder for every front end and test client.
 */

export interface ResourceIdentifier {
  type: string;
  id: string;
}

/** A resource object of a document: attributes and relationship linkage. */
export interface JsonApiResource extends ResourceIdentifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<
    string,
    {
      data?: ResourceIdentifier | ResourceIdentifier[] | null;
      links?: { related?: { href: string } };
    }
  >;
}

/** A document the agent answers (a list, a record, or `data: null`). */
export interface JsonApiDocument {
  data: JsonApiResource | JsonApiResource[] | null;
  included?: JsonApiResource[];
  meta?: { decorators?: Record<string, { id: string; search?: string[] }>; count?: unknown };
}

/** How deep linked records are read from `included` (the agent includes one level). */
const MAX_DEPTH = 3;

/** A record: its packed id, its columns, its to-one relations (resolved from `included`). */
export interface AgentRecord {
  id: string;
  type: string;
  values: Record<string, unknown>;
  /** To-one relations that were projected: the linked record, or null when unlinked. */
  toOne: Record<string, AgentRecord | null>;
  /** Field names that matched the search (meta.decorators, §7.6). */
  matches: string[];
}

function decodeResource(
  resource: JsonApiResource,
  included: Map<string, JsonApiResource>,
  matches: Map<string, string[]>,
  depth: number,
): AgentRecord {
  const toOne: Record<string, AgentRecord | null> = {};
  for (const [name, relationship] of Object.entries(resource.relationships ?? {})) {
    if (!('data' in relationship) || Array.isArray(relationship.data)) continue;
    const ref = relationship.data;
    if (!ref) {
      toOne[name] = null;
      continue;
    }
    const target = included.get(`${ref.type}\u0000${ref.id}`);
    toOne[name] =
      target && depth < MAX_DEPTH
        ? decodeResource(target, included, new Map(), depth + 1)
        : { id: ref.id, type: ref.type, values: {}, toOne: {}, matches: [] };
  }
  return {
    id: String(resource.id),
    type: resource.type,
    values: { ...(resource.attributes ?? {}) },
    toOne,
    matches: matches.get(String(resource.id)) ?? [],
  };
}

function decode(document: JsonApiDocument): AgentRecord[] {
  const included = new Map<string, JsonApiResource>();
  for (const resource of document.included ?? []) {
    included.set(`${resource.type}\u0000${resource.id}`, resource);
  }
  const matches = new Map<string, string[]>();
  for (const decorator of Object.values(document.meta?.decorators ?? {})) {
    matches.set(String(decorator.id), decorator.search ?? []);
  }
  const data =
    document.data === null ? [] : Array.isArray(document.data) ? document.data : [document.data];
  return data.map((resource) => decodeResource(resource, included, matches, 0));
}

/** The records of a list document. */
export function decodeList(document: JsonApiDocument): AgentRecord[] {
  return decode(document);
}

/** The record of a single-record document, or `null` (`data: null`, e.g. out of scope). */
export function decodeOne(document: JsonApiDocument): AgentRecord | null {
  return decode(document)[0] ?? null;
}

/** A JSON:API resource object for create and update bodies (§7.8). */
export function encodeRecord(
  type: string,
  values: Record<string, unknown>,
  toOne: Record<string, ResourceIdentifier | null> = {},
  id?: string,
): { data: Record<string, unknown> } {
  const relationships = Object.fromEntries(
    Object.entries(toOne).map(([name, ref]) => [name, { data: ref }]),
  );
  return {
    data: {
      type,
      ...(id === undefined ? {} : { id }),
      attributes: values,
      ...(Object.keys(relationships).length ? { relationships } : {}),
    },
  };
}

/** Packs primary-key values as the agent does (§7.2): strings joined with `|`. */
export function packId(values: unknown[]): string {
  return values.map((value) => String(value)).join('|');
}
