import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { buildOpenApiDocument } from '../../src';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
  >;
};

const ours = buildOpenApiDocument() as unknown as Doc;
const oursAjv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
oursAjv.addSchema(ours, 'ours.json');

// The published contract (OpenAPI 1.38.0) that existing clients are written against, kept beside
// the tests so they run from a plain checkout.
const CONTRACT_PATH =
  process.env.CANOPY_CONTRACT_PATH ??
  resolve(__dirname, '../contract/public-api-1.38.0.openapi.json');
const contract = JSON.parse(readFileSync(CONTRACT_PATH, 'utf8'));
const contractAjv = addFormats(new Ajv({ strict: false, allErrors: true, validateSchema: false }));
contractAjv.addSchema(contract, 'contract.json');

function pointer(...segments: string[]): string {
  return segments
    .map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/');
}

const templates = Object.keys(ours.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/**
 * Checks a response against our OpenAPI document: the operation exists, the status is documented,
 * and a JSON body validates against the documented schema. Throws with the ajv errors otherwise.
 */
export function validateAgainstOurDocument(
  method: string,
  url: string,
  response: Pick<Response, 'status' | 'headers' | 'body'>,
): void {
  const path = new URL(url, 'http://x').pathname;
  const candidates = templates.filter((candidate) => candidate.regex.test(path));
  // Prefer the most literal template (`/notes/{noteId}` over nothing, `/export` over `{noteId}`).
  candidates.sort(
    (a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0),
  );
  const match = candidates.find((candidate) => ours.paths[candidate.template]?.[method]);
  if (!match) {
    if (response.status === 404 || response.status === 401) return; // unknown routes answer 404 by design
    throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  }
  const operation = ours.paths[match.template]![method]!;
  const status = String(response.status);
  const documented = operation.responses[status] ? status : `${status[0]}XX`;
  if (!operation.responses[documented]) {
    throw new Error(`${method.toUpperCase()} ${match.template} does not document status ${status}`);
  }
  const content = operation.responses[documented]!.content;
  const type = String(response.headers['content-type'] ?? '');
  if (!content || !type.startsWith('application/json')) return;
  const validate = oursAjv.getSchema(
    `ours.json#/${pointer('paths', match.template, method, 'responses', documented, 'content', 'application/json', 'schema')}`,
  );
  if (!validate) throw new Error(`No schema for ${method} ${match.template} ${documented}`);
  if (!validate(response.body)) {
    throw new Error(
      `${method.toUpperCase()} ${path} ${status} does not match our OpenAPI document: ${oursAjv.errorsText(validate.errors)}\n${JSON.stringify(response.body).slice(0, 500)}`,
    );
  }
}

const CONTRACT_ITEMS = {
  activityLog: '/v1/project/{projectName}/environment/{environmentName}/activity-logs',
  adminLog: '/v1/project/{projectName}/admin-logs',
  note: '/v1/project/{projectName}/environment/{environmentName}/notes',
} as const;

/** Validates one item against the published 1.38.0 contract's item schema of its kind. */
export function validateContractItem(kind: keyof typeof CONTRACT_ITEMS, item: unknown): void {
  const validate = contractAjv.getSchema(
    `contract.json#/${pointer('paths', CONTRACT_ITEMS[kind], 'get', 'responses', '200', 'content', 'application/json', 'schema', 'properties', 'data', 'items')}`,
  );
  if (!validate) throw new Error(`No contract schema for ${kind}`);
  if (!validate(item)) {
    throw new Error(
      `A ${kind} item does not match the published contract: ${contractAjv.errorsText(validate.errors)}\n${JSON.stringify(item)}`,
    );
  }
}

/** Validates a `fetch` response (already read as JSON when it is JSON) against our document. */
export function validateFetchResponse(
  method: string,
  url: string,
  response: globalThis.Response,
  body: unknown,
): void {
  validateAgainstOurDocument(method, url, {
    status: response.status,
    headers: { 'content-type': response.headers.get('content-type') ?? '' },
    body,
  });
}

/** Every item of a list body, validated against the contract. */
export function validateContractItems(
  kind: keyof typeof CONTRACT_ITEMS,
  body: { data?: unknown[] },
): void {
  for (const item of body.data ?? []) validateContractItem(kind, item);
}
