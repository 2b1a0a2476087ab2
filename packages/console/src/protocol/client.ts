/**
 * The agent client: every call the console makes to an agent's `/forest` routes (agent protocol
 * §3, §8), with the session token of the agent's own login flow. Plain TypeScript over `fetch`.
 */
import {
  type AgentRecord,
  type AuthenticationCallbackAnswer,
  decodeList,
  decodeOne,
  encodeRecord,
  type JsonApiDocument,
  type ResourceIdentifier,
} from '@canopy/platform-protocol';
// The actions', charts' and history's own code is imported by the calls that need it: the
// screens that make them load it anyway, and the first screen (a list) does without it.
import type { ActionForm, ActionResult } from './actions';
import type { ListParams, Selection } from './query';
import { countQuery, csvQuery, listQuery, segment, selectionBody } from './query';
import type { ApiChartSource, CollectionChartQuery } from './charts';
import type { HistoryEntry, HistoryFilters, HistoryPage } from './history';
import { stateBatches, type RecordStateAt } from './as-of';
import type { FieldOperators } from './operators';
import { parseErrorEnvelope } from './error-envelope';

/** The payload of the agent session token (agent protocol §3.2). */
export type SessionUser = AuthenticationCallbackAnswer['tokenData'];

/** An error answer of the agent, with what it said (§14). */
export class AgentError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName = 'Error',
    readonly data?: unknown,
    /** An internal error's reference, which the agent logged the error under (`meta.reference`). */
    readonly reference?: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

export interface AgentClientOptions {
  /** The agent's base URL (the environment's API endpoint), without `/forest`. */
  baseUrl: string;
  timezone: string;
  getToken(): string | undefined;
  /**
   * Called on a 401 of a private route: resolve `true` once a fresh token is available (the
   * call is then sent again), `false` to give up.
   */
  onUnauthorized?(): Promise<boolean>;
  fetch?: typeof fetch;
}

/** The answer of `POST /_internal/capabilities` (§11), as far as the console reads it. */
interface CapabilitiesAnswer {
  agentCapabilities?: Record<string, unknown>;
  collections?: { name: string; fields: { name: string; operators?: string[] }[] }[];
}

/** The entity tags of the records `get` read (agent protocol §8.3). */
const etags = new WeakMap<AgentRecord, string>();

/** The entity tag the agent sent with `record` (read by `AgentClient.get`), if any. */
export function etagOf(record: AgentRecord | null | undefined): string | undefined {
  return record ? etags.get(record) : undefined;
}

/** What a `412` of a conditional update carries (§8.5): the record's tag and values now. */
export interface ConflictData {
  etag?: string;
  current?: Record<string, unknown>;
}

async function readError(response: Response): Promise<AgentError> {
  // Not JSON (plain-text 400/404/413 answers, §14.4): the text is the message.
  const envelope = parseErrorEnvelope(
    await response.text().catch(() => ''),
    response.statusText || `HTTP ${response.status}`,
  );
  const detail =
    response.status === 403 && envelope.message === 'Forbidden'
      ? 'Your role does not allow this. Ask an administrator of the project for the right.'
      : envelope.message;
  return new AgentError(
    response.status,
    detail,
    envelope.name ?? 'Error',
    envelope.data,
    envelope.reference,
  );
}

export class AgentClient {
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: AgentClientOptions) {
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  get timezone(): string {
    return this.options.timezone;
  }

  /**
   * A client whose calls also send `headers`: a revert's writes carry one
   * `x-forest-correlation-id` and `x-canopy-correlation-kind: revert` (agent protocol §1.6).
   */
  withHeaders(headers: Record<string, string>): AgentClient {
    const fetcher = this.fetcher;
    return new AgentClient({
      ...this.options,
      fetch: (input, init) =>
        fetcher(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string> | undefined), ...headers },
        }),
    });
  }

  url(path: string, query?: string): string {
    return `${this.baseUrl}/forest${path}${query ? `?${query}` : ''}`;
  }

  /** Sends a call and hands back the answer whatever its status (after one 401 retry). */
  private async sendRaw(
    method: string,
    path: string,
    query: string,
    body?: unknown,
    retry = true,
    signal?: AbortSignal,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const token = this.options.getToken();
    const response = await this.fetcher(this.url(path, query), {
      method,
      signal,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401 && retry && this.options.onUnauthorized) {
      if (await this.options.onUnauthorized())
        return this.sendRaw(method, path, query, body, false, signal, extraHeaders);
    }
    return response;
  }

  /** Sends a call; an answer that is not 2xx is thrown as the agent's error. */
  private async send(
    method: string,
    path: string,
    query: string,
    body?: unknown,
    /** Aborts the call (a list replaced by a newer one, e.g. while typing a search). */
    signal?: AbortSignal,
    headers?: Record<string, string>,
  ): Promise<Response> {
    const response = await this.sendRaw(method, path, query, body, true, signal, headers);
    if (!response.ok) throw await readError(response);
    return response;
  }

  private tz(): string {
    return `timezone=${encodeURIComponent(this.timezone)}`;
  }

  // Authentication (§3) ---------------------------------------------------------------------

  /** `POST /authentication`: the platform URL where the user signs in. */
  async startLogin(renderingId: number): Promise<string> {
    const response = await this.fetcher(this.url('/authentication'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ renderingId }),
    });
    if (!response.ok) throw await readError(response);
    return ((await response.json()) as { authorizationUrl: string }).authorizationUrl;
  }

  /** `GET /authentication/callback` with what the platform handed back (code, state, iss…). */
  async finishLogin(
    callback: Record<string, string>,
  ): Promise<{ token: string; user: SessionUser }> {
    const query = new URLSearchParams(callback).toString();
    const response = await this.fetcher(this.url('/authentication/callback', query));
    if (!response.ok) throw await readError(response);
    const body = (await response.json()) as AuthenticationCallbackAnswer;
    return { token: body.token, user: body.tokenData };
  }

  // Records (§8) -----------------------------------------------------------------------------

  async list(collection: string, params: ListParams, signal?: AbortSignal): Promise<AgentRecord[]> {
    const response = await this.send(
      'GET',
      `/${segment(collection)}`,
      listQuery(collection, params, this.timezone),
      undefined,
      signal,
    );
    return decodeList((await response.json()) as JsonApiDocument);
  }

  /** The number of matching records, or `null` when the collection is not countable. */
  async count(
    collection: string,
    params: ListParams,
    signal?: AbortSignal,
  ): Promise<number | null> {
    const response = await this.send(
      'GET',
      `/${segment(collection)}/count`,
      countQuery(collection, params, this.timezone),
      undefined,
      signal,
    );
    const body = (await response.json()) as { count?: number; meta?: { count?: unknown } };
    return typeof body.count === 'number' ? body.count : null;
  }

  /** One record; its entity tag, when the agent sends one (§8.3), is kept for {@link etagOf}. */
  async get(collection: string, id: string): Promise<AgentRecord | null> {
    const response = await this.send('GET', `/${segment(collection)}/${segment(id)}`, this.tz());
    const record = decodeOne((await response.json()) as JsonApiDocument);
    const tag = response.headers.get('etag');
    if (record && tag) etags.set(record, tag);
    return record;
  }

  /** `GET /{c}/{id}` with the record's entity tag (`ETag`, §8.3), for an `If-Match` update. */
  async getTagged(
    collection: string,
    id: string,
  ): Promise<{ record: AgentRecord | null; etag: string | null }> {
    const response = await this.send('GET', `/${segment(collection)}/${segment(id)}`, this.tz());
    const record = decodeOne((await response.json()) as JsonApiDocument);
    return { record, etag: response.headers.get('etag') };
  }

  async create(
    collection: string,
    values: Record<string, unknown>,
    toOne: Record<string, ResourceIdentifier | null> = {},
  ): Promise<AgentRecord> {
    const response = await this.send(
      'POST',
      `/${segment(collection)}`,
      this.tz(),
      encodeRecord(collection, values, toOne),
    );
    const record = decodeOne((await response.json()) as JsonApiDocument);
    if (!record) throw new AgentError(500, 'The agent answered the creation without a record.');
    return record;
  }

  /**
   * Updates columns; `null` when the record is out of the user's scope (§8.5). With `ifMatch`
   * (a tag of {@link etagOf}) the agent refuses a record changed since with a `412`
   * {@link AgentError} whose `data` is a {@link ConflictData}.
   */
  async update(
    collection: string,
    id: string,
    values: Record<string, unknown>,
    ifMatch?: string,
  ): Promise<AgentRecord | null> {
    const response = await this.send(
      'PUT',
      `/${segment(collection)}/${segment(id)}`,
      this.tz(),
      encodeRecord(collection, values, {}, id),
      undefined,
      ifMatch ? { 'if-match': ifMatch } : undefined,
    );
    return decodeOne((await response.json()) as JsonApiDocument);
  }

  /**
   * Writes the same values on every selected record in one request: Canopy's `PATCH /{c}` (agent
   * protocol §8.5.1, advertised as `canUseBulkUpdate`). Answers how many records it matched.
   */
  async bulkUpdate(
    collection: string,
    selection: Selection,
    values: Record<string, unknown>,
  ): Promise<number | null> {
    const response = await this.send('PATCH', `/${segment(collection)}`, this.tz(), {
      ...encodeRecord(collection, values),
      meta: { selection: selectionBody(collection, selection, this.timezone).data.attributes },
    });
    const body = (await response.json()) as { meta?: { count?: unknown } };
    return typeof body.meta?.count === 'number' ? body.meta.count : null;
  }

  /** Links (or unlinks, with `null`) a to-one relation (§8.12). */
  async setToOne(
    collection: string,
    id: string,
    relation: string,
    target: ResourceIdentifier | null,
  ): Promise<void> {
    await this.send(
      'PUT',
      `/${segment(collection)}/${segment(id)}/relationships/${segment(relation)}`,
      this.tz(),
      { data: target },
    );
  }

  /** Deletes records: one with `DELETE /{c}/{id}`, several with a selection body (§8.6, §8.7). */
  async remove(collection: string, selection: Selection): Promise<void> {
    if (!selection.allRecords && selection.ids.length === 1) {
      await this.send('DELETE', `/${segment(collection)}/${segment(selection.ids[0]!)}`, this.tz());
      return;
    }
    await this.send(
      'DELETE',
      `/${segment(collection)}`,
      this.tz(),
      selectionBody(collection, selection, this.timezone),
    );
  }

  // Related data (§8.8 – §8.11) -------------------------------------------------------------

  private relationPath(collection: string, parentId: string, relation: string): string {
    return `/${segment(collection)}/${segment(parentId)}/relationships/${segment(relation)}`;
  }

  async listRelated(
    collection: string,
    parentId: string,
    relation: string,
    target: string,
    params: ListParams,
    signal?: AbortSignal,
  ): Promise<AgentRecord[]> {
    const response = await this.send(
      'GET',
      this.relationPath(collection, parentId, relation),
      listQuery(target, params, this.timezone),
      undefined,
      signal,
    );
    return decodeList((await response.json()) as JsonApiDocument);
  }

  async countRelated(
    collection: string,
    parentId: string,
    relation: string,
    target: string,
    params: ListParams,
  ): Promise<number | null> {
    const response = await this.send(
      'GET',
      `${this.relationPath(collection, parentId, relation)}/count`,
      countQuery(target, params, this.timezone),
    );
    const body = (await response.json()) as { count?: number };
    return typeof body.count === 'number' ? body.count : null;
  }

  async associate(
    collection: string,
    parentId: string,
    relation: string,
    target: ResourceIdentifier,
  ): Promise<void> {
    await this.send('POST', this.relationPath(collection, parentId, relation), this.tz(), {
      data: [target],
    });
  }

  /** Dissociates the selected related records, or deletes them with `{delete: true}`. */
  async dissociate(
    collection: string,
    parentId: string,
    relation: string,
    target: string,
    selection: Selection,
    options: { delete?: boolean } = {},
  ): Promise<void> {
    await this.send(
      'DELETE',
      this.relationPath(collection, parentId, relation),
      `${this.tz()}${options.delete ? '&delete=true' : ''}`,
      selectionBody(target, selection, this.timezone),
    );
  }

  // Actions (§9) -----------------------------------------------------------------------------

  /** The route of an action: the schema's `endpoint` (`/forest/_actions/…`) under this agent. */
  private actionPath(endpoint: string): string {
    const path = endpoint.startsWith('/forest/') ? endpoint.slice('/forest'.length) : endpoint;
    return path.startsWith('/') ? path : `/${path}`;
  }

  /** `hooks/load`, `hooks/change` or `hooks/search` of an action: the form as the agent sees it. */
  async actionHook(
    endpoint: string,
    hook: 'load' | 'change' | 'search',
    body: unknown,
  ): Promise<ActionForm> {
    const response = await this.send(
      'POST',
      `${this.actionPath(endpoint)}/hooks/${hook}`,
      this.tz(),
      body,
    );
    const { mergeForm } = await import('./actions');
    return mergeForm((await response.json()) as ActionForm);
  }

  /**
   * Runs an action (§9.2) and reads its result (§9.6): success, error (a 400 with `error`),
   * webhook, redirect, file, or the approval the role needs (§9.7).
   */
  async executeAction(endpoint: string, body: unknown): Promise<ActionResult> {
    const response = await this.sendRaw('POST', this.actionPath(endpoint), this.tz(), body);
    const { readActionResult } = await import('./actions');
    const result = await readActionResult(response);
    if (result.kind === 'error' && response.status !== 400 && response.status >= 401) {
      throw new AgentError(response.status, result.message);
    }
    return result;
  }

  // CSV (§8.14) ------------------------------------------------------------------------------

  /** The session token calls are sent with (a streamed download hands it to its worker). */
  token(): string {
    return this.options.getToken() ?? '';
  }

  /** The export URL of a list (or of a relation, with `related`). */
  csvUrl(
    collection: string,
    params: ListParams,
    header: string[],
    filename: string,
    related?: { parent: string; parentId: string; relation: string },
  ): string {
    const path = related
      ? `${this.relationPath(related.parent, related.parentId, related.relation)}.csv`
      : `/${segment(collection)}.csv`;
    return this.url(path, csvQuery(collection, params, this.timezone, header, filename));
  }

  /**
   * Downloads an export: the response is read as it streams in (`onProgress` gets the bytes
   * so far) and handed back as a Blob.
   */
  async downloadCsv(url: string, onProgress?: (bytes: number) => void): Promise<Blob> {
    const response = await this.fetcher(url, {
      headers: { authorization: `Bearer ${this.options.getToken() ?? ''}`, accept: 'text/csv' },
    });
    if (!response.ok) throw await readError(response);
    if (!response.body) return response.blob();
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      onProgress?.(bytes);
    }
    // Blob's own parameter type, so the module also type-checks without the DOM library (Node).
    const parts = chunks as unknown as NonNullable<ConstructorParameters<typeof Blob>[0]>;
    return new Blob(parts, { type: 'text/csv;charset=utf-8' });
  }

  // Charts (§10) -----------------------------------------------------------------------------

  /**
   * `POST /stats/{c}`: a chart computed by the agent. The body is the chart definition itself,
   * as stored in the rendering's `stats` (the agent matches it for the chart permission, §15.3).
   */
  async stats(query: CollectionChartQuery): Promise<unknown> {
    const { statsBody } = await import('./charts');
    const response = await this.send(
      'POST',
      `/stats/${segment(query.sourceCollectionName)}`,
      this.tz(),
      statsBody(query),
    );
    return ((await response.json()) as { data?: { attributes?: { value?: unknown } } }).data
      ?.attributes?.value;
  }

  /**
   * A chart declared in code (§10.2): `POST /_charts/…` read from its envelope, or for smart
   * charts `GET /_charts/…` raw. Collection charts are computed for `recordId`.
   */
  async apiChart(source: ApiChartSource): Promise<unknown> {
    const path = source.collection
      ? `/_charts/${segment(source.collection)}/${segment(source.chart)}`
      : `/_charts/${segment(source.chart)}`;
    const recordQuery = source.recordId ? `&record_id=${encodeURIComponent(source.recordId)}` : '';
    if (source.kind === 'smart') {
      const response = await this.send('GET', path, `${this.tz()}${recordQuery}`);
      return response.json();
    }
    const response = await this.send(
      'POST',
      path,
      this.tz(),
      source.recordId ? { record_id: source.recordId } : {},
    );
    return ((await response.json()) as { data?: { attributes?: { value?: unknown } } }).data
      ?.attributes?.value;
  }

  // Capabilities (§11) and record history (§13.1) -------------------------------------------

  /** `POST /_internal/capabilities`: what the agent supports (`canUseAuditTrail`, …). */
  async capabilities(): Promise<Record<string, unknown>> {
    return (await this.capabilitiesOf([])).agentCapabilities ?? {};
  }

  /**
   * The operators (snake_case) the agent allows on each field of these collections, from its
   * capabilities: collection → field → operators. Fields it cannot filter have none.
   */
  async fieldOperators(collectionNames: string[]): Promise<FieldOperators> {
    const operators: FieldOperators = {};
    for (const collection of (await this.capabilitiesOf(collectionNames)).collections ?? []) {
      operators[collection.name] = Object.fromEntries(
        collection.fields.map((field) => [field.name, field.operators ?? []]),
      );
    }
    return operators;
  }

  private async capabilitiesOf(collectionNames: string[]): Promise<CapabilitiesAnswer> {
    const response = await this.send('POST', '/_internal/capabilities', '', { collectionNames });
    return (await response.json()) as CapabilitiesAnswer;
  }

  /**
   * `GET /_audit-trail/{c}/{id}`: one page of a record's history, newest first (`size` entries,
   * `HISTORY_PAGE_SIZE` when absent).
   */
  async recordHistory(
    collection: string,
    id: string,
    page = 1,
    size?: number,
    filters: HistoryFilters = {},
  ): Promise<HistoryPage> {
    const { HISTORY_PAGE_SIZE, historyQuery } = await import('./history');
    const response = await this.send(
      'GET',
      `/_audit-trail/${segment(collection)}/${segment(id)}`,
      historyQuery(this.timezone, page, size ?? HISTORY_PAGE_SIZE, filters),
    );
    const body = (await response.json()) as Partial<HistoryPage>;
    const data = Array.isArray(body.data) ? body.data : [];
    const users = body.meta?.availableUsers;
    return {
      data,
      meta: {
        count: Number(body.meta?.count ?? data.length),
        ...(Array.isArray(users) ? { availableUsers: users } : {}),
      },
    };
  }

  /** `GET /_audit-trail/{c}/{id}/state?at=`: the record's recorded values at `at` (ISO). */
  async recordState(collection: string, id: string, at: string): Promise<Record<string, unknown>> {
    const response = await this.send(
      'GET',
      `/_audit-trail/${segment(collection)}/${segment(id)}/state`,
      `${this.tz()}&at=${encodeURIComponent(at)}`,
    );
    return ((await response.json()) as { data?: Record<string, unknown> }).data ?? {};
  }

  /**
   * `POST /_audit-trail/{c}/states` (Canopy's agent): these records at `at` (an instant), one
   * call per 100 ids; records outside the user's scope are not in the answer.
   */
  async recordStates(collection: string, ids: string[], at: string): Promise<RecordStateAt[]> {
    const answers = await Promise.all(
      stateBatches(ids).map(async (batch) => {
        const path = `/_audit-trail/${segment(collection)}/states`;
        const response = await this.send('POST', path, this.tz(), { at, ids: batch });
        const body = (await response.json()) as { data?: RecordStateAt[] };
        return Array.isArray(body.data) ? body.data : [];
      }),
    );
    return answers.flat();
  }

  /**
   * `POST /_audit-trail/correlations`: every entry of these correlations the user may read,
   * across records (`acrossRecords`); the record (`collection`, `id`) is the one the user looks at.
   */
  async correlations(collection: string, id: string, keys: string[]): Promise<HistoryEntry[]> {
    const response = await this.send('POST', '/_audit-trail/correlations', this.tz(), {
      collection,
      recordId: id,
      correlationKeys: keys,
      acrossRecords: true,
    });
    const body = (await response.json()) as { data?: HistoryEntry[] };
    return Array.isArray(body.data) ? body.data : [];
  }
}
