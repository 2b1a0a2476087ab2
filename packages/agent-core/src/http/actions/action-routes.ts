import jwt from 'jsonwebtoken';

import { actionId, actionSlug } from '../../schema/action-schema-generator';
import type { ActionResult } from '../../toolkit/action/action-result';
import { UnprocessableError, ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import { changeActionForm, loadActionForm, searchActionForm } from '../../operations/action-form';
import type { ActionTarget } from '../../operations/action-selection';
import { type ExecuteActionRequest, executeAction } from '../../operations/execute-action';
import { ForbiddenError, NotFoundError } from '../../toolkit/errors/canopy-error';
import type { FlatQuery } from '../../protocol/query/query-string';
import { findCollection, openDataRequest } from '../request/data-request';
import type { RouteTable } from '../pipeline/route-table';
import { sendJson } from '../pipeline/send-json';
import type { HttpContext } from '../request/http-context';
import { type HttpResponse, requestBody } from '../request/node-http';
import {
  actionRecords,
  readActionSelection,
  wireFields,
} from '../../protocol/actions/action-request';
import { decodeWireFields } from '../../operations/actions/form-values';
import { encodeFormAnswer } from '../../protocol/actions/form-answer';

/**
 * The slug → action map of each collection for the unsafe endpoint; two actions of a collection
 * with the same slug make the router refuse to build (the agent then refuses to start).
 */
export function buildUnsafeSlugIndex(
  collections: readonly Collection[],
): Map<string, Map<string, string>> {
  const index = new Map<string, Map<string, string>>();
  for (const collection of collections) {
    const slugs = new Map<string, string>();
    for (const name of Object.keys(collection.schema.actions)) {
      const slug = actionSlug(name);
      const previous = slugs.get(slug);
      if (previous !== undefined) {
        throw new ValidationError(
          `Actions '${previous}' and '${name}' of '${collection.name}' both have the route slug '${slug}', which useUnsafeActionEndpoint cannot tell apart: rename one of them or turn the option off.`,
          { code: 'DUPLICATE_ACTION_SLUG' },
        );
      }
      slugs.set(slug, name);
    }
    index.set(collection.name, slugs);
  }
  return index;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Action routes of agent-http-protocol §9 (execute and the load/change/search hooks): adapters
 * over `src/operations/` (action-form, execute-action).
 */
export function addActionRoutes(routes: RouteTable, context: HttpContext): void {
  const { options } = context.services;
  const unsafeIndex = options.useUnsafeActionEndpoint
    ? buildUnsafeSlugIndex(context.services.dataSource.collections)
    : null;

  /** The action of the route's parameters: `[collection, slug]`, or `[collection, index, slug]`. */
  const resolve = (params: readonly string[]): ActionTarget & { id: string } => {
    const collection = findCollection(context, params[0] as string);
    const slug = params[unsafeIndex ? 1 : 2] as string;
    let name: string | undefined;
    if (unsafeIndex) {
      name = unsafeIndex.get(collection.name)?.get(slug);
    } else {
      const index = Number(params[1]);
      const candidate = Number.isInteger(index)
        ? Object.keys(collection.schema.actions)[index]
        : undefined;
      if (candidate !== undefined && actionSlug(candidate) === slug) name = candidate;
    }
    if (name === undefined) {
      throw new NotFoundError(`Action '${String(slug)}' does not exist on '${collection.name}'`);
    }
    const index = Object.keys(collection.schema.actions).indexOf(name);
    return { collection, name, id: actionId(collection.name, index, name, options) };
  };

  const base = unsafeIndex
    ? '/_actions/:collectionName/:slug'
    : '/_actions/:collectionName/:index/:slug';

  routes.add('POST', base, async (request, response, params) => {
    const action = resolve(params);
    const data = openDataRequest(context, request, response);
    const result = await executeAction(
      context,
      data,
      action,
      readExecution(action, requestBody(request), data.query),
    );
    sendResult(response, result);
  });

  routes.add('POST', `${base}/hooks/:hook`, async (request, response, params) => {
    const action = resolve(params);
    const data = openDataRequest(context, request, response);
    const hook = params[params.length - 1];
    if (hook !== 'load' && hook !== 'change' && hook !== 'search') {
      throw new NotFoundError(`Unknown action hook '${hook}': expected load, change or search`);
    }
    const { collection } = action;
    const read = () => readActionSelection(action, requestBody(request), data.query);
    if (hook === 'load') {
      const elements = await loadActionForm(context, data, action, () => {
        const selection = read();
        const { values } = selection.attributes;
        return {
          records: actionRecords(action, selection),
          values: isObject(values) ? values : {},
        };
      });
      sendJson(response, encodeFormAnswer(collection, elements));
      return;
    }
    if (hook === 'change') {
      const elements = await changeActionForm(context, data, action, () => {
        const selection = read();
        const { attributes } = selection;
        return {
          records: actionRecords(action, selection),
          values: decodeWireFields(collection, wireFields(attributes)),
          changedField:
            typeof attributes.changed_field === 'string' ? attributes.changed_field : null,
        };
      });
      sendJson(response, encodeFormAnswer(collection, elements));
      return;
    }
    const field = await searchActionForm(context, data, action, () => {
      const selection = read();
      const { attributes } = selection;
      const fields = wireFields(attributes);
      const searchField =
        typeof attributes.search_field === 'string' ? attributes.search_field : null;
      const searched = fields.find((candidate) => candidate?.field === searchField);
      return {
        records: actionRecords(action, selection),
        values: decodeWireFields(collection, fields),
        searchField,
        searchValue: typeof searched?.searchValue === 'string' ? searched.searchValue : null,
      };
    });
    sendJson(response, { fields: encodeFormAnswer(collection, [field]).fields, layout: [] });
  });

  /**
   * Reads an execution request: refuses a forged requester, verifies a signed approval. An
   * approved run executes exactly what was signed: the signed collection and action must be the
   * route's, and records and values come from the signed body alone (not from the query string).
   */
  function readExecution(
    action: ActionTarget & { id: string },
    rawBody: unknown,
    query: FlatQuery,
  ): ExecuteActionRequest {
    const rawAttributes =
      isObject(rawBody) && isObject(rawBody.data) ? rawBody.data.attributes : undefined;
    if (isObject(rawAttributes) && 'requester_id' in rawAttributes)
      throw new UnprocessableError('');
    let body = rawBody;
    let selectionQuery = query;
    const signed = isObject(rawAttributes) ? rawAttributes.signed_approval_request : undefined;
    if (typeof signed === 'string' && signed !== '') {
      body = verifySignedApproval(signed, options.envSecret, action);
      selectionQuery = {};
    }
    const selection = readActionSelection(action, body, selectionQuery);
    const requester = selection.attributes.requester_id;
    const { values } = selection.attributes;
    return {
      records: actionRecords(action, selection),
      values: isObject(values) ? values : {},
      requesterId: requester === undefined || requester === null ? null : Number(requester),
    };
  }
}

/**
 * Verifies a platform-signed approval (HS256 with the environment secret) and checks that it
 * approves this route's action: its `collection_name` and `smart_action_id` must be the route's
 * collection and action id. Returns the signed body.
 */
function verifySignedApproval(
  token: string,
  envSecret: string | undefined,
  action: ActionTarget & { id: string },
): unknown {
  if (!envSecret) {
    throw new UnprocessableError(
      'This agent cannot verify signed approval requests: it was started without its environment secret',
    );
  }
  let payload: unknown;
  try {
    payload = jwt.verify(token, envSecret, { algorithms: ['HS256'] });
  } catch {
    throw new ForbiddenError('The signed approval request is invalid or expired');
  }
  const attributes =
    isObject(payload) && isObject(payload.data) && isObject(payload.data.attributes)
      ? payload.data.attributes
      : {};
  const signedCollection = attributes.collection_name;
  const signedAction = attributes.smart_action_id;
  if (typeof signedCollection !== 'string' || typeof signedAction !== 'string') {
    throw new ForbiddenError(
      'The signed approval request does not name the approved collection and action (collection_name, smart_action_id): the agent runs only an approved action',
    );
  }
  if (signedCollection !== action.collection.name || signedAction !== action.id) {
    throw new ForbiddenError(
      `The signed approval request approves ${JSON.stringify(signedAction)} on ${JSON.stringify(signedCollection)}, not ${JSON.stringify(action.id)} on ${JSON.stringify(action.collection.name)}: the agent runs only the approved action`,
    );
  }
  return payload;
}

/** Sends an action result in the wire form of §9.6. */
export function sendResult(response: HttpResponse, result: ActionResult): void {
  for (const [header, value] of Object.entries(result.responseHeaders ?? {})) {
    response.setHeader(header, value);
  }
  switch (result.type) {
    case 'Success':
      sendJson(response, {
        success: result.message ?? '',
        html: result.html,
        refresh: { relationships: [...(result.invalidated ?? [])] },
      });
      return;
    case 'Error':
      sendJson(response, { error: result.message || 'Error', html: result.html }, 400);
      return;
    case 'Webhook':
      sendJson(response, {
        webhook: {
          url: result.url,
          method: result.method,
          headers: result.headers,
          body: result.body,
        },
      });
      return;
    case 'Redirect':
      sendJson(response, { redirectTo: result.path });
      return;
    case 'File': {
      const mimeType = result.mimeType || 'application/octet-stream';
      const name = (result.name || 'file').replace(/["\\\r\n]/g, '_');
      response.setHeader(
        'Content-Type',
        mimeType.startsWith('text/') ? `${mimeType}; charset=utf-8` : mimeType,
      );
      response.setHeader('Content-Disposition', `attachment; filename="${name}"`);
      response.setHeader('Access-Control-Expose-Headers', 'Content-Disposition');
      result.stream.on('error', () => response.destroy());
      result.stream.pipe(response);
      return;
    }
    default:
      throw new Error(
        `Unknown action result type '${String((result as { type?: unknown }).type)}'`,
      );
  }
}
