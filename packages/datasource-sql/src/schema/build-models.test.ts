import type { ColumnSchema } from '@canopy/agent-core';
import type {
  IntrospectedColumn,
  IntrospectedTable,
  SqlIntrospection,
} from '../introspection/introspection';
import { buildModels } from './build-models';

function column(name: string, extra: Partial<IntrospectedColumn> = {}): IntrospectedColumn {
  return {
    name,
    sqlType: 'integer',
    type: { kind: 'scalar', scalar: 'integer' },
    allowNull: true,
    autoIncrement: false,
    ...extra,
  };
}

function table(
  name: string,
  parts: Partial<IntrospectedTable> & { columns: IntrospectedColumn[] },
) {
  return { name, primaryKey: [], uniques: [], foreignKeys: [], ...parts };
}

function introspection(
  tables: IntrospectedTable[],
  views: IntrospectedTable[] = [],
): SqlIntrospection {
  return {
    version: 1,
    source: '@canopy/datasource-sql',
    dialect: 'postgres',
    tables,
    views,
    warnings: [],
  };
}

const id = column('id', { autoIncrement: true, allowNull: false });
const key = (name: string) => table(name, { columns: [id], primaryKey: ['id'] });

describe('buildModels', () => {
  it('names a relation after its key without the suffix, and the inverse after the table', () => {
    const { models } = buildModels(
      introspection([
        key('author'),
        table('book', {
          columns: [id, column('authorId')],
          primaryKey: ['id'],
          foreignKeys: [{ column: 'authorId', foreignTable: 'author', foreignColumn: 'id' }],
        }),
      ]),
    );
    expect(models.get('book')?.fields.author).toEqual({
      type: 'ManyToOne',
      foreignCollection: 'author',
      foreignKey: 'authorId',
      foreignKeyTarget: 'id',
    });
    expect(models.get('author')?.fields.books).toMatchObject({
      type: 'OneToMany',
      originKey: 'authorId',
    });
  });

  it('makes a unique key a one-to-one relation', () => {
    const { models } = buildModels(
      introspection([
        key('customer'),
        table('account', {
          columns: [id, column('customerId')],
          primaryKey: ['id'],
          uniques: [['id'], ['customerId']],
          foreignKeys: [{ column: 'customerId', foreignTable: 'customer', foreignColumn: 'id' }],
        }),
      ]),
    );
    expect(models.get('customer')?.fields.account).toMatchObject({
      type: 'OneToOne',
      originKey: 'customerId',
    });
  });

  it('turns a junction table into many-to-many relations both ways', () => {
    const { models } = buildModels(
      introspection([
        key('product'),
        key('order'),
        table('product_order', {
          columns: [column('product_id'), column('order_id')],
          primaryKey: ['product_id', 'order_id'],
          foreignKeys: [
            { column: 'product_id', foreignTable: 'product', foreignColumn: 'id' },
            { column: 'order_id', foreignTable: 'order', foreignColumn: 'id' },
          ],
        }),
      ]),
    );
    expect(models.get('product')?.fields.orders).toMatchObject({
      type: 'ManyToMany',
      throughCollection: 'product_order',
      originKey: 'product_id',
      foreignKey: 'order_id',
    });
    expect(models.get('order')?.fields.products).toMatchObject({
      type: 'ManyToMany',
      foreignCollection: 'product',
    });
    expect(Object.keys(models.get('product_order')?.fields ?? {})).toEqual([
      'product_id',
      'order_id',
      'product',
      'order',
    ]);
    expect(models.get('product')?.fields.product_orders).toBeUndefined();
  });

  it('gives long names to every relation sharing a colliding name', () => {
    const { models } = buildModels(
      introspection([
        table('user', { columns: [id, column('message')], primaryKey: ['id'] }),
        table('message', {
          columns: [id, column('sender_id'), column('recipient_id')],
          primaryKey: ['id'],
          foreignKeys: [
            { column: 'sender_id', foreignTable: 'user', foreignColumn: 'id' },
            { column: 'recipient_id', foreignTable: 'user', foreignColumn: 'id' },
          ],
        }),
      ]),
    );
    const user = Object.keys(models.get('user')?.fields ?? {});
    expect(user).toEqual([
      'id',
      'message',
      'messages_through_user_sender_id',
      'messages_through_user_recipient_id',
    ]);
    expect(Object.keys(models.get('message')?.fields ?? {})).toContain('sender');
  });

  it('uses the long name when a simple name equals a column or the table itself', () => {
    const { models } = buildModels(
      introspection([
        table('node', {
          columns: [id, column('node_id')],
          primaryKey: ['id'],
          foreignKeys: [{ column: 'node_id', foreignTable: 'node', foreignColumn: 'id' }],
        }),
      ]),
    );
    expect(Object.keys(models.get('node')?.fields ?? {})).toEqual([
      'id',
      'node_id',
      'node_through_node_id',
      'nodes',
    ]);
  });

  it('guesses primary keys and warns, in the documented order', () => {
    const { models, warnings } = buildModels(
      introspection(
        [
          table('with_id', { columns: [column('ID'), column('x')] }),
          table('with_unique', {
            columns: [column('a'), column('b'), column('c')],
            uniques: [['a', 'b'], ['c']],
          }),
          key('left'),
          key('right'),
          table('pairs', {
            columns: [column('left_id'), column('right_id')],
            foreignKeys: [
              { column: 'left_id', foreignTable: 'left', foreignColumn: 'id' },
              { column: 'right_id', foreignTable: 'right', foreignColumn: 'id' },
            ],
          }),
          table('nothing', { columns: [column('x'), column('y'), column('z')] }),
        ],
        [table('report', { columns: [column('month'), column('total')] })],
      ),
    );
    expect(models.get('with_id')?.primaryKey).toEqual(['ID']);
    expect(models.get('with_unique')?.primaryKey).toEqual(['c']);
    expect(models.get('pairs')?.primaryKey).toEqual(['left_id', 'right_id']);
    expect(models.get('nothing')?.primaryKey).toEqual([]);
    expect(models.get('report')?.primaryKey).toEqual(['month']);
    expect(warnings).toEqual([
      'Table "with_id" has no primary key. Using "ID".',
      'Table "with_unique" has no primary key. Using "c".',
      'Table "pairs" has no primary key. Using "left_id", "right_id".',
      expect.stringContaining('Table "nothing" has no primary key and none can be guessed'),
    ]);
  });

  it('marks generated and view columns read-only, exposes literal defaults only', () => {
    const { models } = buildModels(
      introspection(
        [
          table('t', {
            columns: [
              id,
              column('status', {
                type: { kind: 'enum', values: ['a', 'b'] },
                allowNull: false,
                defaultValue: { kind: 'literal', value: 'a' },
              }),
              column('created', {
                type: { kind: 'scalar', scalar: 'timestamp' },
                defaultValue: { kind: 'expression', sql: 'now()' },
              }),
              column('title', { type: { kind: 'scalar', scalar: 'string' }, allowNull: false }),
            ],
            primaryKey: ['id'],
          }),
        ],
        [table('v', { columns: [column('n')] })],
      ),
    );
    const fields = models.get('t')?.fields as Record<string, ColumnSchema>;
    expect(fields.id).toMatchObject({ isReadOnly: true, isPrimaryKey: true });
    expect(fields.status).toMatchObject({
      columnType: 'Enum',
      enumValues: ['a', 'b'],
      defaultValue: 'a',
    });
    expect(fields.status?.validation).toBeUndefined();
    expect(fields.created?.defaultValue).toBeUndefined();
    expect(fields.title?.validation).toEqual([{ operator: 'Present' }]);
    expect((models.get('v')?.fields.n as ColumnSchema).isReadOnly).toBe(true);
  });

  it('leaves out tables and columns whose names contain a dot, with a warning', () => {
    const { models, warnings } = buildModels(
      introspection([
        table('v1.2', { columns: [id], primaryKey: ['id'] }),
        table('plain', {
          columns: [id, column('a.b'), column('ok')],
          primaryKey: ['id'],
          uniques: [['a.b']],
          foreignKeys: [{ column: 'ok', foreignTable: 'v1.2', foreignColumn: 'id' }],
        }),
      ]),
    );
    expect([...models.keys()]).toEqual(['plain']);
    expect(Object.keys(models.get('plain')?.fields ?? {})).toEqual(['id', 'ok']);
    expect(warnings).toEqual([
      `Skipping table "v1.2": names containing '.' are not supported.`,
      `Skipping column plain.a.b: names containing '.' are not supported.`,
    ]);
  });
});
