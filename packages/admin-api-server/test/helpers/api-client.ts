import type { Express } from 'express';
import request, { type Response } from 'supertest';
import {
  validateAgainstOurDocument,
  validateContractItem,
  validateContractItems,
} from './openapi-validator';

/** Options of one call. */
export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The calls of {@link apiClient}. */
export interface ApiClient {
  get(url: string, options?: CallOptions): Promise<Response>;
  post(url: string, options?: CallOptions): Promise<Response>;
  patch(url: string, options?: CallOptions): Promise<Response>;
  delete(url: string, options?: CallOptions): Promise<Response>;
}

/**
 * A supertest client whose every response is validated against our OpenAPI document, and whose
 * list items (and single notes) are validated against the published contract.
 */
export function apiClient(app: Express): ApiClient {
  async function call(
    method: 'get' | 'post' | 'patch' | 'delete',
    url: string,
    options: CallOptions = {},
  ): Promise<Response> {
    let req = request(app)[method](url);
    if (options.token !== undefined) req = req.set('Authorization', `Bearer ${options.token}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
    const response =
      options.body === undefined ? await req : await req.send(options.body as object);
    validateAgainstOurDocument(method, url, response);
    if (response.status < 300 && method === 'get') {
      if (/\/activity-logs(\?|$)/.test(url)) validateContractItems('activityLog', response.body);
      if (/\/admin-logs(\?|$)/.test(url)) validateContractItems('adminLog', response.body);
      if (/\/notes(\?|$)/.test(url)) validateContractItems('note', response.body);
    }
    if (
      response.status < 300 &&
      /\/notes(\/\d+)?(\?|$)/.test(url) &&
      response.body?.object === 'note'
    ) {
      validateContractItem('note', response.body);
    }
    return response;
  }
  return {
    get: (url: string, options?: CallOptions) => call('get', url, options),
    post: (url: string, options?: CallOptions) => call('post', url, options),
    patch: (url: string, options?: CallOptions) => call('patch', url, options),
    delete: (url: string, options?: CallOptions) => call('delete', url, options),
  };
}
