import { randomUUID } from 'node:crypto';

import { actionRecords, readActionSelection } from '../protocol/actions/action-request';
import { encodeFormAnswer } from '../protocol/actions/form-answer';
import type { SessionClaims } from '../operations/session-claims';
import { describeCollectionCapabilities } from '../protocol/capabilities/collection-capabilities';
import { toErrorEnvelope } from '../http/errors/error-handler';
import { parsePage } from '../protocol/query/page';
import type { FlatQuery } from '../protocol/query/query-string';
import { readRequestedProjection } from '../protocol/query/projection';
import { defaultProjection, withPrimaryKeys } from '../operations/query/projection';
import { queryFilterParameters, readSelection, selectionTree } from '../protocol/query/selection';
import { parseSort } from '../protocol/query/sort';
import { deserializeBody } from '../protocol/serializer/deserialize';
import { serializeRecord, serializeRecords } from '../protocol/serializer/json-api';
import { unpackRecordId } from '../operations/records/record-id';
import { loadActionForm } from '../operations/action-form';
import type { ActionTarget } from '../operations/action-selection';
import { associateRecord } from '../operations/associate';
import { type OperationCaller, type OperationContext, findCollection } from '../operations/context';
import { callerIdentity } from '../toolkit/caller';
import { countRecords } from '../operations/count';
import { countRelated } from '../operations/count-related';
import { createRecord } from '../operations/create';
import { deleteRecords } from '../operations/delete';
import { dissociateRecords } from '../operations/dissociate';
import { executeAction } from '../operations/execute-action';
import { listRecords } from '../operations/list';
import { listRelated } from '../operations/list-related';
import { resolveRelation } from '../operations/relation';
import { updateRecord } from '../operations/update';
import { NotFoundError } from '../toolkit/errors/canopy-error';
import type { ActionResult } from '../toolkit/action/action-result';
import type { Collection } from '../toolkit/interfaces/collection';
import type { Projection } from '../toolkit/query/projection';

/**
 * What an operation answered, in the shape of the agent's REST answer for the same request
 * (status, JSON body as it would be sent, headers), so that tools render successes and refusals
 * (`<detail> (HTTP <status>)`, platform protocol §16.5) exactly as the REST interface words them.
 */
export interface AgentAnswer {
  status: number;
  /** The JSON body (as sent on the wire: dates as ISO text), or the text of a file. */
  body: unknown;
  headers: Record<string, string>;
}

/** Query-string parameters of a read, as the REST interface takes them (agent-http-protocol §6). */
export type ReadQuery = Record<string, string | undefined>;

/**
 * The agent's operations as the MCP tools call them, in memory (platform protocol §16.1): the
 * same operations as the REST routes (permissions, scopes, filters, activity logs), run as the
 * MCP token's user, with the REST interface's request parsing and JSON:API serialization, and
 * no socket. Each method resolves an {@link AgentAnswer}; it never rejects for a refusal.
 */
export class AgentOperations {
  private readonly who: OperationCaller;

  constructor(
    private readonly context: OperationContext,
    claims: SessionClaims,
  ) {
    this.who = {
      claims,
      caller: {
        ...callerIdentity(claims),
        timezone: 'UTC',
        requestId: randomUUID(),
        request: { ip: '127.0.0.1' },
      },
    };
  }

  /** A page of records (`GET /{c}`). */
  list(collectionName: string, raw: ReadQuery): Promise<AgentAnswer> {
    const query = flat(raw);
    return this.answer(async () => {
      const collection = findCollection(this.context, collectionName);
      const { records, filter } = await listRecords(this.context, this.who, collection, () => ({
        filter: queryFilterParameters(query),
        projection: readProjection(collection, query),
        sort: parseSort(collection, query.sort),
        page: parsePage(query['page[number]'], query['page[size]']),
      }));
      return serializeRecords(collection, records, filter.search);
    });
  }

  /** The number of records (`GET /{c}/count`). */
  count(collectionName: string, raw: ReadQuery): Promise<AgentAnswer> {
    const query = flat(raw);
    return this.answer(async () => {
      const collection = findCollection(this.context, collectionName);
      return countRecords(this.context, this.who, collection, () => ({
        filter: queryFilterParameters(query),
      }));
    });
  }

  /** A page of the records linked to one record (`GET /{c}/{id}/relationships/{r}`). */
  listRelated(
    collectionName: string,
    parentId: string,
    relationName: string,
    raw: ReadQuery,
  ): Promise<AgentAnswer> {
    const query = flat(raw);
    return this.answer(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      const { target } = relation;
      const { records, filter } = await listRelated(
        this.context,
        this.who,
        relation,
        () => ({ filter: queryFilterParameters(query), packedParentId: parentId }),
        () => ({
          sort: parseSort(target, query.sort),
          page: parsePage(query['page[number]'], query['page[size]']),
          projection: readProjection(target, query),
        }),
      );
      return serializeRecords(target, records, filter.search);
    });
  }

  /** The number of records linked to one record (`GET /{c}/{id}/relationships/{r}/count`). */
  countRelated(
    collectionName: string,
    parentId: string,
    relationName: string,
    raw: ReadQuery,
  ): Promise<AgentAnswer> {
    const query = flat(raw);
    return this.answer(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      return countRelated(this.context, this.who, relation, () => ({
        filter: queryFilterParameters(query),
      }));
    });
  }

  /** Creates a record from a JSON:API resource body (`POST /{c}`). */
  create(collectionName: string, body: unknown): Promise<AgentAnswer> {
    return this.answer(async () => {
      const collection = findCollection(this.context, collectionName);
      const record = await createRecord(this.context, this.who, collection, () => {
        const parsed = deserializeBody(collection, body);
        return { values: { ...parsed.idValues, ...parsed.attributes }, toOne: parsed.toOne };
      });
      return serializeRecord(collection, record);
    });
  }

  /** Updates a record from a JSON:API resource body (`PUT /{c}/{id}`). */
  update(collectionName: string, packedId: string, body: unknown): Promise<AgentAnswer> {
    return this.answer(async () => {
      const collection = findCollection(this.context, collectionName);
      const record = await updateRecord(this.context, this.who, collection, () => ({
        id: unpackRecordId(collection, packedId),
        packedId,
        values: deserializeBody(collection, body).attributes,
      }));
      return serializeRecord(collection, record);
    });
  }

  /** Deletes the records of a selection body (`DELETE /{c}`). */
  delete(collectionName: string, body: unknown): Promise<AgentAnswer> {
    return this.answer(async () => {
      const collection = findCollection(this.context, collectionName);
      await deleteRecords(this.context, this.who, collection, () => {
        const selection = readSelection(collection, body, {});
        return {
          filter: selection.parameters,
          selection: selectionTree(collection, selection),
          packedIds: selection.ids.map((id) => id.map(String).join('|')),
        };
      });
      return NO_CONTENT;
    });
  }

  /** Links a record to a parent (`POST /{c}/{id}/relationships/{r}`). */
  associate(
    collectionName: string,
    parentId: string,
    relationName: string,
    targetId: string,
  ): Promise<AgentAnswer> {
    return this.answer(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      await associateRecord(this.context, this.who, relation, () => ({
        targetId: unpackRecordId(relation.target, targetId),
        packedParentId: parentId,
      }));
      return NO_CONTENT;
    });
  }

  /** Unlinks the records of a selection body from a parent (`DELETE /{c}/{id}/relationships/{r}`). */
  dissociate(
    collectionName: string,
    parentId: string,
    relationName: string,
    body: unknown,
  ): Promise<AgentAnswer> {
    return this.answer(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      const { target } = relation;
      await dissociateRecords(this.context, this.who, relation, false, () => {
        const selection = readSelection(target, body, {});
        return {
          filter: selection.parameters,
          selection: selectionTree(target, selection),
          empty: !selection.allRecords && selection.ids.length === 0,
          packedParentId: parentId,
        };
      });
      return NO_CONTENT;
    });
  }

  /** The form of an action (`POST /_actions/…/hooks/load`), in its wire form. */
  loadActionForm(collectionName: string, actionName: string, body: unknown): Promise<AgentAnswer> {
    return this.answer(async () => {
      const action = this.findAction(collectionName, actionName);
      const elements = await loadActionForm(this.context, this.who, action, () => {
        const selection = readActionSelection(action, body, {});
        const { values } = selection.attributes;
        return {
          records: actionRecords(action, selection),
          values: isObject(values) ? values : {},
        };
      });
      return encodeFormAnswer(action.collection, elements);
    });
  }

  /**
   * Runs an action (`POST /_actions/…`): the answer is the action result's wire form
   * (agent-http-protocol §9.6).
   */
  async executeAction(
    collectionName: string,
    actionName: string,
    body: unknown,
  ): Promise<AgentAnswer> {
    try {
      const action = this.findAction(collectionName, actionName);
      const selection = readActionSelection(action, body, {});
      const { values } = selection.attributes;
      const result = await executeAction(this.context, this.who, action, {
        records: actionRecords(action, selection),
        values: isObject(values) ? values : {},
        requesterId: null,
      });
      return await resultAnswer(result);
    } catch (error) {
      return errorAnswer(error);
    }
  }

  /**
   * The filtering capabilities of collections (agent-http-protocol §11:
   * `POST /_internal/capabilities`).
   */
  capabilities(collectionNames: readonly string[]): Promise<AgentAnswer> {
    return this.answer(async () => ({
      collections: this.context.services.dataSource.collections
        .filter((collection) => collectionNames.includes(collection.name))
        .map(describeCollectionCapabilities),
    }));
  }

  private findAction(collectionName: string, actionName: string): ActionTarget {
    const collection = findCollection(this.context, collectionName);
    if (!(actionName in collection.schema.actions)) {
      throw new NotFoundError(`Action '${actionName}' does not exist on '${collection.name}'`);
    }
    return { collection, name: actionName };
  }

  private async answer(run: () => Promise<unknown>): Promise<AgentAnswer> {
    try {
      const body = await run();
      if (body === NO_CONTENT) return { status: 204, body: '', headers: {} };
      return { status: 200, body: asWire(body), headers: JSON_HEADERS };
    } catch (error) {
      return errorAnswer(error);
    }
  }
}

const NO_CONTENT = Symbol('no content');
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** The parameters that are set, as a query string carries them. */
function flat(query: ReadQuery): FlatQuery {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined) result[key] = value;
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body as the wire carries it (dates as ISO text, `undefined` members dropped). */
function asWire(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body ?? null)) as unknown;
}

function errorAnswer(error: unknown): AgentAnswer {
  const envelope = toErrorEnvelope(error);
  return { status: envelope.errors[0].status, body: asWire(envelope), headers: JSON_HEADERS };
}

/** The projection of a read: the `fields[…]` parameters, else the default; keys always added. */
function readProjection(collection: Collection, query: FlatQuery): Projection {
  const requested = readRequestedProjection(collection, query, undefined, collection.name);
  return withPrimaryKeys(collection, requested ?? defaultProjection(collection));
}

/** An action result as `sendResult` (action-routes.ts) answers it (agent-http-protocol §9.6). */
async function resultAnswer(result: ActionResult): Promise<AgentAnswer> {
  const headers: Record<string, string> = { ...JSON_HEADERS };
  for (const [header, value] of Object.entries(result.responseHeaders ?? {})) {
    headers[header.toLowerCase()] = String(value);
  }
  switch (result.type) {
    case 'Success':
      return {
        status: 200,
        headers,
        body: asWire({
          success: result.message ?? '',
          html: result.html,
          refresh: { relationships: [...(result.invalidated ?? [])] },
        }),
      };
    case 'Error':
      return {
        status: 400,
        headers,
        body: asWire({ error: result.message || 'Error', html: result.html }),
      };
    case 'Webhook':
      return {
        status: 200,
        headers,
        body: asWire({
          webhook: {
            url: result.url,
            method: result.method,
            headers: result.headers,
            body: result.body,
          },
        }),
      };
    case 'Redirect':
      return { status: 200, headers, body: asWire({ redirectTo: result.path }) };
    case 'File': {
      const mimeType = result.mimeType || 'application/octet-stream';
      const name = (result.name || 'file').replace(/["\\\r\n]/g, '_');
      const chunks: Buffer[] = [];
      for await (const chunk of result.stream) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      }
      headers['content-type'] = mimeType.startsWith('text/')
        ? `${mimeType}; charset=utf-8`
        : mimeType;
      headers['content-disposition'] = `attachment; filename="${name}"`;
      return { status: 200, headers, body: Buffer.concat(chunks).toString('utf8') };
    }
    default:
      throw new Error(
        `Unknown action result type '${String((result as { type?: unknown }).type)}'`,
      );
  }
}
