import { readSchemaDocument } from './schema-document';

const document = (data: unknown[], included: unknown[] = []) => ({
  meta: { schemaFileHash: 'abc' },
  data,
  included,
});

it('reads the hash and the collections with their action names', () => {
  expect(
    readSchemaDocument(
      document(
        [
          {
            type: 'collections',
            id: 'orders',
            attributes: { name: 'orders', fields: [] },
            relationships: { actions: { data: [{ type: 'actions', id: 'orders-0-refund' }] } },
          },
        ],
        [{ type: 'actions', id: 'orders-0-refund', attributes: { name: 'Refund' } }],
      ),
    ),
  ).toEqual({ hash: 'abc', collections: [{ name: 'orders', actionNames: ['Refund'] }] });
});

it.each([
  [{ data: [] }, 'meta.schemaFileHash must be a non-empty string'],
  [document([{ type: 'segments', attributes: {} }]), 'data[0] must be a collections resource'],
  [
    document([{ type: 'collections', attributes: { name: '', fields: [] } }]),
    'data[0].attributes.name must be a non-empty string',
  ],
  [
    document([
      { type: 'collections', attributes: { name: 'a', fields: [] } },
      { type: 'collections', attributes: { name: 'a', fields: [] } },
    ]),
    'data[1].attributes.name must be unique ("a" repeats)',
  ],
  [
    document([
      {
        type: 'collections',
        attributes: { name: 'a', fields: [] },
        relationships: { actions: { data: [{ type: 'actions', id: 'missing' }] } },
      },
    ]),
    'data[0].relationships.actions.data[0] must be an action listed in included',
  ],
  [document([], [{ id: 1 }]), 'included[0] must be a resource with a type and an id'],
])('refuses a document that does not validate, naming the path (%#)', (body, message) => {
  expect(() => readSchemaDocument(body)).toThrow(`Invalid schema upload: ${message}`);
});
