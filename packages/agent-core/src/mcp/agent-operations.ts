import { randomUUID } from 'node:crypto';

import { loadActionForm } from '../operations/action-form';
import type { ActionTarget } from '../operations/action-selection';
import { associateRecord } from '../operations/associate';
import { type OperationCaller, type OperationContext, findCollection } from '../operations/context';
import { type CountResult, countRecords } from '../operations/count';
import { countRelated } from '../operations/count-related';
import { createRecord } from '../operations/create';
import { deleteRecords } from '../operations/delete';
import { dissociateRecords } from '../operations/dissociate';
import { executeAction } from '../operations/execute-action';
import type { FilterParameters } from '../operations/filter';
import { listRecords } from '../operations/list';
import { listRelated } from '../operations/list-related';
import { defaultProjection, withPrimaryKeys } from '../operations/query/projection';
import { unpackRecordId } from '../operations/records/record-id';
import { resolveRelation } from '../operations/relation';
import type { SessionClaims } from '../operations/session-claims';
import { updateRecord } from '../operations/update';
import { actionRecords, actionSelection } from '../protocol/actions/action-request';
import { type FormAnswer, encodeFormAnswer } from '../protocol/actions/form-answer';
import { describeCollectionCapabilities } from '../protocol/capabilities/collection-capabilities';
import { parsePage } from '../protocol/query/page';
import { projectionOf } from '../protocol/query/projection';
import { idsSelection, selectionTree } from '../protocol/query/selection';
import { type SortRequest, toSort } from '../protocol/query/sort';
import { toOneLink } from '../protocol/serializer/deserialize';
import type { ActionResult } from '../toolkit/action/action-result';
import { callerIdentity } from '../toolkit/caller';
import { NotFoundError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { Projection } from '../toolkit/query/projection';
import type { CompositeId, RecordData } from '../toolkit/record/record-utils';
import { operationFailure } from './tool-refusal';

/** Which records a read or a count is about (agent-http-protocol §6.1). */
export interface RecordsFilter {
  /** A condition tree, with the operators and aggregators of the wire (§6.3). */
  readonly filters?: unknown;
  readonly search?: string;
  /** Also search the fields of to-one relations (§6.6). */
  readonly searchExtended?: boolean;
}

/** The fields a read returns: the collection's, and those of the to-one relations it names. */
export interface RecordsProjection {
  readonly fields: readonly string[];
  readonly relationFields: ReadonlyMap<string, readonly string[]>;
}

/** A page of a read: what to read, in which order, which page. */
export interface ReadRequest extends RecordsFilter {
  readonly sort?: SortRequest;
  /** 1-based page number and size. */
  readonly page: { readonly number: number; readonly size: number };
  /** `undefined`: the collection's default fields. */
  readonly projection?: RecordsProjection;
}

/** Records read or written, with the collection that serializes them. */
export interface RecordsAnswer {
  readonly collection: Collection;
  readonly records: readonly RecordData[];
}

/** A record to write: column values, and to-one links (target's packed id, `null` to unlink). */
export interface RecordValues {
  readonly values: RecordData;
  readonly links: ReadonlyMap<string, string | null>;
}

/** The records an action (or its form) runs on, and the form's values in their wire form. */
export interface ActionRequest {
  readonly ids: readonly string[];
  readonly values: Record<string, unknown>;
}

/**
 * The agent's operations as the MCP tools call them, in memory (platform protocol §16.1): the
 * same operations as the REST routes (permissions, scopes, filters, activity logs), run as the
 * MCP token's user, on typed requests the protocol layer checks as it checks the REST
 * interface's. Each method resolves a typed result; a refusal rejects with the operation's
 * Canopy error, any other failure with an `UnexpectedOperationFailure` (tool-refusal.ts words both).
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

  /** A page of records (as `GET /{c}`). */
  list(collectionName: string, request: ReadRequest): Promise<RecordsAnswer> {
    return this.run(async () => {
      const collection = findCollection(this.context, collectionName);
      const { records } = await listRecords(this.context, this.who, collection, () => ({
        filter: filterParameters(request),
        projection: readProjection(collection, request.projection),
        sort: request.sort ? toSort(collection, request.sort) : null,
        page: parsePage(request.page.number, request.page.size),
      }));
      return { collection, records };
    });
  }

  /** The number of records (as `GET /{c}/count`). */
  count(collectionName: string, filter: RecordsFilter): Promise<CountResult> {
    return this.run(async () => {
      const collection = findCollection(this.context, collectionName);
      return countRecords(this.context, this.who, collection, () => ({
        filter: filterParameters(filter),
      }));
    });
  }

  /** A page of the records linked to one record (as `GET /{c}/{id}/relationships/{r}`). */
  listRelated(
    collectionName: string,
    parentId: string,
    relationName: string,
    request: ReadRequest,
  ): Promise<RecordsAnswer> {
    return this.run(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      const { target } = relation;
      const { records } = await listRelated(
        this.context,
        this.who,
        relation,
        () => ({ filter: filterParameters(request), packedParentId: parentId }),
        () => ({
          sort: request.sort ? toSort(target, request.sort) : null,
          page: parsePage(request.page.number, request.page.size),
          projection: readProjection(target, request.projection),
        }),
      );
      return { collection: target, records };
    });
  }

  /** The number of records linked to one record (as `GET /{c}/{id}/relationships/{r}/count`). */
  countRelated(
    collectionName: string,
    parentId: string,
    relationName: string,
    filter: RecordsFilter,
  ): Promise<CountResult> {
    return this.run(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      return countRelated(this.context, this.who, relation, () => ({
        filter: filterParameters(filter),
      }));
    });
  }

  /** Creates a record (as `POST /{c}`). */
  create(collectionName: string, record: RecordValues): Promise<RecordsAnswer> {
    return this.run(async () => {
      const collection = findCollection(this.context, collectionName);
      const created = await createRecord(this.context, this.who, collection, () => ({
        values: { ...record.values },
        toOne: toOneLinks(collection, record.links),
      }));
      return { collection, records: [created] };
    });
  }

  /** Updates a record's column values (as `PUT /{c}/{id}`; links are not changed by an update). */
  update(collectionName: string, packedId: string, record: RecordValues): Promise<RecordsAnswer> {
    return this.run(async () => {
      const collection = findCollection(this.context, collectionName);
      const updated = await updateRecord(this.context, this.who, collection, () => {
        const id = unpackRecordId(collection, packedId);
        // The links' ids are checked as the REST body's are, though an update changes none.
        toOneLinks(collection, record.links);
        return { id, packedId, values: { ...record.values } };
      });
      return { collection, records: updated ? [updated] : [] };
    });
  }

  /** Deletes records by id (as `DELETE /{c}`). */
  delete(collectionName: string, ids: readonly string[]): Promise<void> {
    return this.run(async () => {
      const collection = findCollection(this.context, collectionName);
      await deleteRecords(this.context, this.who, collection, () => {
        const selection = idsSelection(collection, ids);
        return {
          filter: selection.parameters,
          selection: selectionTree(collection, selection),
          packedIds: selection.ids.map((id) => id.map(String).join('|')),
        };
      });
    });
  }

  /** Links a record to a parent (as `POST /{c}/{id}/relationships/{r}`). */
  associate(
    collectionName: string,
    parentId: string,
    relationName: string,
    targetId: string,
  ): Promise<void> {
    return this.run(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      await associateRecord(this.context, this.who, relation, () => ({
        targetId: unpackRecordId(relation.target, targetId),
        packedParentId: parentId,
      }));
    });
  }

  /** Unlinks records from a parent (as `DELETE /{c}/{id}/relationships/{r}`). */
  dissociate(
    collectionName: string,
    parentId: string,
    relationName: string,
    ids: readonly string[],
  ): Promise<void> {
    return this.run(async () => {
      const relation = resolveRelation(this.context, collectionName, parentId, relationName);
      const { target } = relation;
      await dissociateRecords(this.context, this.who, relation, false, () => {
        const selection = idsSelection(target, ids);
        return {
          filter: selection.parameters,
          selection: selectionTree(target, selection),
          empty: selection.ids.length === 0,
          packedParentId: parentId,
        };
      });
    });
  }

  /** The form of an action (as `POST /_actions/…/hooks/load`), in its wire form. */
  loadActionForm(
    collectionName: string,
    actionName: string,
    request: ActionRequest,
  ): Promise<FormAnswer> {
    return this.run(async () => {
      const action = this.findAction(collectionName, actionName);
      const elements = await loadActionForm(this.context, this.who, action, () => ({
        records: this.actionRecords(action, request),
        values: request.values,
      }));
      return encodeFormAnswer(action.collection, elements);
    });
  }

  /** Runs an action (as `POST /_actions/…`); resolves the action's result. */
  executeAction(
    collectionName: string,
    actionName: string,
    request: ActionRequest,
  ): Promise<ActionResult> {
    return this.run(async () => {
      const action = this.findAction(collectionName, actionName);
      return executeAction(this.context, this.who, action, {
        records: this.actionRecords(action, request),
        values: request.values,
        requesterId: null,
      });
    });
  }

  /** The filtering capabilities of collections (as `POST /_internal/capabilities`, §11). */
  capabilities(
    collectionNames: readonly string[],
  ): Promise<ReturnType<typeof describeCollectionCapabilities>[]> {
    return this.run(async () =>
      this.context.services.dataSource.collections
        .filter((collection) => collectionNames.includes(collection.name))
        .map(describeCollectionCapabilities),
    );
  }

  private findAction(collectionName: string, actionName: string): ActionTarget {
    const collection = findCollection(this.context, collectionName);
    if (!(actionName in collection.schema.actions)) {
      throw new NotFoundError(`Action '${actionName}' does not exist on '${collection.name}'`);
    }
    return { collection, name: actionName };
  }

  private actionRecords(action: ActionTarget, request: ActionRequest) {
    return actionRecords(
      action,
      actionSelection(action, idsSelection(action.collection, request.ids)),
    );
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw operationFailure(error);
    }
  }
}

function filterParameters(filter: RecordsFilter): FilterParameters {
  return {
    filters: filter.filters,
    search: filter.search,
    searchExtended: filter.searchExtended,
  };
}

/** The projection of a read: the fields asked for, else the default; keys always added. */
function readProjection(
  collection: Collection,
  requested: RecordsProjection | undefined,
): Projection {
  const projection = requested
    ? projectionOf(collection, requested.fields, (relation) =>
        requested.relationFields.get(relation),
      )
    : null;
  return withPrimaryKeys(collection, projection ?? defaultProjection(collection));
}

function toOneLinks(
  collection: Collection,
  links: ReadonlyMap<string, string | null>,
): Map<string, CompositeId | null> {
  const toOne = new Map<string, CompositeId | null>();
  for (const [relation, id] of links) {
    const target = toOneLink(collection, relation, id === null ? null : { id });
    if (target !== undefined) toOne.set(relation, target);
  }
  return toOne;
}
