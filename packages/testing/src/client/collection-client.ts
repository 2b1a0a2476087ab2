import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import { selectionBody } from '@canopy/platform-protocol';

import { ActionClient, type ActionTarget } from './action-client';
import type { AgentHttp } from './agent-http';
import { type ClientRecord, deserializeDocument } from './deserialize-records';
import { projectionHeaders, type QueryOptions, serializeQueryOptions } from './query-options';
import type { SchemaFile } from './schema-file';

/** A record id: a value, or the values of a composite key. */
export type ClientRecordId = string | number | (string | number)[];

function packId(id: ClientRecordId): string {
  if (!Array.isArray(id)) return String(id);
  if (id.some((part) => String(part).includes('|'))) {
    throw new Error(`A composite id part may not contain '|': ${JSON.stringify(id)}`);
  }
  return id.map(String).join('|');
}

const path = (...parts: string[]) => `/${parts.map(encodeURIComponent).join('/')}`;

/** The chart value of a `stats` answer. */
function chartValue(answer: unknown): unknown {
  return (answer as { data?: { attributes?: { value?: unknown } } }).data?.attributes?.value;
}

/** The related records of one parent record through a to-many relation. */
export class RelationClient {
  constructor(
    private readonly http: AgentHttp,
    private readonly prefix: string,
    private readonly collection: string,
    private readonly relation: string,
    private readonly parentId: ClientRecordId,
    private readonly targetCollection: string | undefined,
  ) {}

  private get base(): string {
    return `${this.prefix}${path(this.collection, packId(this.parentId), 'relationships', this.relation)}`;
  }

  /** `GET /{c}/{parentId}/relationships/{r}`. */
  async list(options?: QueryOptions): Promise<ClientRecord[]> {
    const document = await this.http.json<Parameters<typeof deserializeDocument>[0]>({
      method: 'GET',
      path: this.base,
      query: serializeQueryOptions(this.targetCollection ?? this.relation, options),
      headers: projectionHeaders(options),
    });
    return deserializeDocument(document);
  }

  /** `GET …/count` (a number, or `'deactivated'` when the target is not countable). */
  async count(options?: QueryOptions): Promise<number | 'deactivated'> {
    const answer = await this.http.json<{ count?: number; meta?: { count: 'deactivated' } }>({
      method: 'GET',
      path: `${this.base}/count`,
      query: serializeQueryOptions(this.targetCollection ?? this.relation, options),
    });
    return answer.count ?? answer.meta?.count ?? 0;
  }

  /** Links one target record to the parent. */
  async associate(targetId: ClientRecordId): Promise<void> {
    await this.http.json({
      method: 'POST',
      path: this.base,
      body: { data: [{ id: packId(targetId), type: this.targetCollection ?? this.relation }] },
    });
  }

  /** Unlinks target records from the parent (or deletes them with `{delete: true}`). */
  async dissociate(targetIds: ClientRecordId[], options: { delete?: boolean } = {}): Promise<void> {
    await this.http.json({
      method: 'DELETE',
      path: this.base,
      query: options.delete ? { delete: 'true' } : {},
      body: selectionBody(this.targetCollection ?? this.relation, { ids: targetIds.map(packId) }),
    });
  }
}

/** One collection of the agent, as the front end reads and writes it. */
export class CollectionClient {
  constructor(
    private readonly http: AgentHttp,
    private readonly prefix: string,
    readonly name: string,
    private readonly schema: SchemaFile,
    private readonly fixedQuery: Record<string, string> = {},
  ) {}

  private query(options?: QueryOptions): Record<string, string | undefined> {
    return { ...serializeQueryOptions(this.name, options, this.fieldNames), ...this.fixedQuery };
  }

  /** The collection's field names in the schema file (flattened `a@@@b` names included). */
  private get fieldNames(): ReadonlySet<string> {
    const collection = this.schema.collections.find(({ name }) => name === this.name);
    const fields = (collection?.fields ?? []) as { field?: unknown }[];
    return new Set(fields.map(({ field }) => String(field)));
  }

  /** `GET /{c}`: records as plain objects. */
  async list(options?: QueryOptions): Promise<ClientRecord[]> {
    const document = await this.http.json<Parameters<typeof deserializeDocument>[0]>({
      method: 'GET',
      path: `${this.prefix}${path(this.name)}`,
      query: this.query(options),
      headers: projectionHeaders(options),
    });
    return deserializeDocument(document);
  }

  /** `GET /{c}?search=…`. */
  search(text: string, options: QueryOptions = {}): Promise<ClientRecord[]> {
    return this.list({ ...options, search: text });
  }

  /** `GET /{c}/count` (a number, or `'deactivated'` when the collection is not countable). */
  async count(options?: QueryOptions): Promise<number | 'deactivated'> {
    const answer = await this.http.json<{ count?: number; meta?: { count: 'deactivated' } }>({
      method: 'GET',
      path: `${this.prefix}${path(this.name, 'count')}`,
      query: this.query(options),
    });
    return answer.count ?? answer.meta?.count ?? 0;
  }

  /** `GET /{c}/{id}`: the record, or the raw JSON:API document with `skipDeserialization`. */
  async getOne(
    id: ClientRecordId,
    options?: QueryOptions,
    settings: { skipDeserialization?: boolean } = {},
  ): Promise<ClientRecord> {
    const document = await this.http.json<Parameters<typeof deserializeDocument>[0]>({
      method: 'GET',
      path: `${this.prefix}${path(this.name, packId(id))}`,
      query: this.query(options),
      headers: projectionHeaders(options),
    });
    if (settings.skipDeserialization) return document as unknown as ClientRecord;
    return deserializeDocument(document)[0] as ClientRecord;
  }

  /** `POST /{c}`: the created record. */
  async create(attributes: ClientRecord): Promise<ClientRecord> {
    const document = await this.http.json<Parameters<typeof deserializeDocument>[0]>({
      method: 'POST',
      path: `${this.prefix}${path(this.name)}`,
      body: { data: { type: this.name, attributes } },
    });
    return deserializeDocument(document)[0] as ClientRecord;
  }

  /** `PUT /{c}/{id}`: the updated record (`null` when out of scope). */
  async update(id: ClientRecordId, attributes: ClientRecord): Promise<ClientRecord | null> {
    const document = await this.http.json<Parameters<typeof deserializeDocument>[0]>({
      method: 'PUT',
      path: `${this.prefix}${path(this.name, packId(id))}`,
      body: { data: { type: this.name, id: packId(id), attributes } },
    });
    return deserializeDocument(document)[0] ?? null;
  }

  /** `DELETE /{c}` with a selection of ids. */
  async delete(ids: ClientRecordId[]): Promise<void> {
    await this.http.json({
      method: 'DELETE',
      path: `${this.prefix}${path(this.name)}`,
      body: selectionBody(this.name, { ids: ids.map(packId) }),
    });
  }

  /** `GET /{c}.csv`, piped into `stream` (header = the requested fields, or `header`). */
  async exportCsv(
    stream: NodeJS.WritableStream,
    options: QueryOptions & { header?: string[]; filename?: string } = {},
  ): Promise<void> {
    const header = options.header ?? options.fields ?? options.projection ?? [];
    const response = await this.http.send({
      method: 'GET',
      path: `${this.prefix}/${encodeURIComponent(this.name)}.csv`,
      accept: 'text/csv',
      query: { ...this.query(options), header: header.join(','), filename: options.filename },
      headers: projectionHeaders(options),
    });
    if (!response.body) return;
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), stream);
  }

  /** `POST /_internal/capabilities` for this collection. */
  async capabilities(): Promise<unknown> {
    const answer = await this.http.json<{ collections: unknown[] }>({
      method: 'POST',
      path: `${this.prefix}/_internal/capabilities`,
      body: { collectionNames: [this.name] },
    });
    return answer.collections[0];
  }

  /** The records of a segment (`?segment=name`). */
  segment(name: string): CollectionClient {
    return new CollectionClient(this.http, this.prefix, this.name, this.schema, {
      ...this.fixedQuery,
      segment: name,
    });
  }

  /** The records of a live SQL segment. */
  liveQuerySegment(segment: { connectionName: string; query: string }): CollectionClient {
    return new CollectionClient(this.http, this.prefix, this.name, this.schema, {
      ...this.fixedQuery,
      segmentQuery: segment.query,
      connectionName: segment.connectionName,
    });
  }

  /** The related records of `parentId` through the to-many relation `name`. */
  relation(name: string, parentId: ClientRecordId): RelationClient {
    const collection = this.schema.collections.find((c) => c.name === this.name);
    const field = (
      collection?.fields as { field: string; reference?: string | null }[] | undefined
    )?.find((candidate) => candidate.field === name);
    const target = field?.reference?.split('.')[0];
    return new RelationClient(this.http, this.prefix, this.name, name, parentId, target);
  }

  /** An action of this collection on some records, its form loaded (platform protocol §14.6). */
  async action(name: string, target: ActionTarget = {}): Promise<ActionClient> {
    const collection = this.schema.collections.find((c) => c.name === this.name);
    const action = collection?.actions.find((candidate) => candidate.name === name);
    if (!action) {
      const names = collection?.actions.map((candidate) => candidate.name) ?? [];
      throw new Error(
        `Collection '${this.name}' has no action '${name}' in the schema. Actions: [${names.join(', ')}]`,
      );
    }
    return new ActionClient(this.http, this.name, action, target).load();
  }

  /** A chart declared on this collection, for one record (`POST /_charts/{c}/{chart}`). */
  async chart(name: string, options: { recordId: ClientRecordId }): Promise<unknown> {
    return chartValue(
      await this.http.json({
        method: 'POST',
        path: `${this.prefix}${path('_charts', this.name, name)}`,
        body: { record_id: packId(options.recordId) },
      }),
    );
  }

  /** Aliases of {@link chart} named after the chart kinds of the reference client. */
  valueChart = (name: string, options: { recordId: ClientRecordId }) => this.chart(name, options);
  distributionChart = (name: string, options: { recordId: ClientRecordId }) =>
    this.chart(name, options);
  percentageChart = (name: string, options: { recordId: ClientRecordId }) =>
    this.chart(name, options);
  objectiveChart = (name: string, options: { recordId: ClientRecordId }) =>
    this.chart(name, options);
  leaderboardChart = (name: string, options: { recordId: ClientRecordId }) =>
    this.chart(name, options);
  timeBasedChart = (name: string, options: { recordId: ClientRecordId }) =>
    this.chart(name, options);

  /** A chart computed by the agent on this collection (`POST /stats/{c}`). */
  async stats(definition: Record<string, unknown>): Promise<unknown> {
    return chartValue(
      await this.http.json({
        method: 'POST',
        path: `${this.prefix}${path('stats', this.name)}`,
        body: { sourceCollectionName: this.name, ...definition },
      }),
    );
  }
}

export { chartValue, packId };
