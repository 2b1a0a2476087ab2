import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { invalidBody, invalidParameter } from '../errors';
import { isInstant } from './input-rules';

/** A JSON Schema as a plain object (also emitted as-is into the OpenAPI document). */
export type JsonSchema = Record<string, unknown>;

/** ajv-formats plus the shared input rules: `date-time` is an instant PostgreSQL can hold. */
function withFormats(ajv: Ajv): Ajv {
  return addFormats(ajv).addFormat('date-time', { type: 'string', validate: isInstant });
}

// Query strings arrive as text: coercion turns "10" into 10 for integer parameters.
const queryAjv = withFormats(new Ajv({ coerceTypes: true, useDefaults: true, strict: true }));
const bodyAjv = withFormats(new Ajv({ useDefaults: true, strict: true }));

function describe(error: ErrorObject, schema: JsonSchema): { name: string; problem: string } {
  const name = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const owner = schemaAtPath(schema, error.schemaPath.replace(/\/additionalProperties$/, ''));
      const accepted = Object.keys((owner?.properties as object | undefined) ?? {}).join(', ');
      return {
        name: [name, String(params.additionalProperty)].filter(Boolean).join('.'),
        problem: accepted
          ? `is not accepted here; accepted: ${accepted}`
          : 'is not accepted here: this object takes no properties',
      };
    }
    case 'required':
      return {
        name: [name, String(params.missingProperty)].filter(Boolean).join('.'),
        problem: 'is required',
      };
    case 'type':
      return { name, problem: `must be ${article(String(params.type))}` };
    case 'minimum':
    case 'maximum': {
      const property = schemaAt(schema, error.instancePath);
      return {
        name,
        problem:
          property?.minimum !== undefined && property.maximum !== undefined
            ? `must be between ${property.minimum} and ${property.maximum}`
            : `must be ${error.keyword === 'minimum' ? '≥' : '≤'} ${String(params.limit)}`,
      };
    }
    case 'format':
      return {
        name,
        problem:
          params.format === 'date-time'
            ? 'must be an ISO 8601 date-time with a time zone, of a year 0001 to 9999 and without leap second, such as 2026-01-31T12:00:00.000Z'
            : params.format === 'email'
              ? 'must be an email address such as jane@example.com'
              : `must be a valid ${String(params.format)}`,
      };
    case 'enum':
      return { name, problem: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'minLength':
      return {
        name,
        problem:
          Number(params.limit) > 1
            ? `must be at least ${String(params.limit)} characters long`
            : 'must not be empty',
      };
    case 'maxLength':
      return { name, problem: `must be at most ${String(params.limit)} characters long` };
    case 'minItems':
      return { name, problem: `must have at least ${String(params.limit)} item(s)` };
    case 'uniqueItems':
      return { name, problem: 'must not repeat an item' };
    default:
      return { name, problem: error.message ?? 'is invalid' };
  }
}

function article(type: string): string {
  if (type === 'integer') return 'an integer';
  if (type === 'array') return 'an array';
  if (type === 'object') return 'an object';
  if (type === 'boolean') return 'true or false';
  return `a ${type}`;
}

/** The subschema at an ajv `schemaPath` (`#/properties/a/items`), if the path stays inline. */
function schemaAtPath(schema: JsonSchema, path: string): JsonSchema | undefined {
  let node: unknown = schema;
  for (const key of path.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
}

function schemaAt(schema: JsonSchema, pointer: string): Record<string, unknown> | undefined {
  const key = pointer.split('/')[1];
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  return key === undefined ? undefined : properties?.[key];
}

/**
 * Compiles a query-string schema into a parser: coerces, applies defaults, and throws a 400 that
 * names the first wrong parameter.
 */
export function queryParser<T>(schema: JsonSchema): (query: unknown) => T {
  const validate: ValidateFunction = queryAjv.compile(schema);
  return (query) => {
    const copy = { ...(query as object) };
    if (validate(copy)) return copy as T;
    const { name, problem } = describe(validate.errors![0]!, schema);
    throw invalidParameter(name, problem);
  };
}

/** Compiles a request-body schema into a parser throwing a 400 that names the wrong property. */
export function bodyParser<T>(schema: JsonSchema): (body: unknown) => T {
  const validate: ValidateFunction = bodyAjv.compile(schema);
  return (body) => {
    const copy = body === undefined ? undefined : structuredClone(body);
    if (validate(copy)) return copy as T;
    const { name, problem } = describe(validate.errors![0]!, schema);
    throw invalidBody(name, problem);
  };
}
