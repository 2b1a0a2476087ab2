import { createCollectionSchema } from '../../schema/collection-schema';
import type { CollectionSchema } from '../../schema/collection-schema';
import { ConditionTreeBranch } from './condition-tree-branch';
import { ConditionTreeFactory } from './condition-tree-factory';
import { ConditionTreeLeaf } from './condition-tree-leaf';

function schemaWithPks(...pks: string[]): CollectionSchema {
  const schema = createCollectionSchema();
  for (const pk of pks) {
    schema.fields[pk] = {
      type: 'Column',
      columnType: 'Number',
      isPrimaryKey: true,
      filterOperators: new Set(['Equal', 'In']),
    };
  }
  return schema;
}

describe('ConditionTreeFactory', () => {
  describe('fromPlainObject', () => {
    it('returns null for null and builds leaves and branches', () => {
      expect(ConditionTreeFactory.fromPlainObject(null)).toBeNull();
      const tree = ConditionTreeFactory.fromPlainObject({
        aggregator: 'Or',
        conditions: [
          { field: 'a', operator: 'Equal', value: 1 },
          { field: 'b', operator: 'Present' },
        ],
      });
      expect(tree).toBeInstanceOf(ConditionTreeBranch);
      expect(tree?.toPlainObject()).toEqual({
        aggregator: 'Or',
        conditions: [
          { field: 'a', operator: 'Equal', value: 1 },
          { field: 'b', operator: 'Present' },
        ],
      });
    });

    it('collapses a branch with a single condition', () => {
      const tree = ConditionTreeFactory.fromPlainObject({
        aggregator: 'And',
        conditions: [{ field: 'a', operator: 'Equal', value: 1 }],
      });
      expect(tree).toBeInstanceOf(ConditionTreeLeaf);
    });

    it('rejects unknown shapes, operators and aggregators with a clear message', () => {
      expect(() => ConditionTreeFactory.fromPlainObject({ foo: 1 } as never)).toThrow(
        /Failed to instantiate condition tree from json/,
      );
      expect(() =>
        ConditionTreeFactory.fromPlainObject({ field: 'a', operator: 'Equals' } as never),
      ).toThrow(/known 'operator'/);
      expect(() =>
        ConditionTreeFactory.fromPlainObject({ aggregator: 'Xor', conditions: [] } as never),
      ).toThrow(/supported values are: \['Or','And'\]/);
    });
  });

  describe('intersect and union', () => {
    const a = new ConditionTreeLeaf('a', 'Equal', 1);
    const b = new ConditionTreeLeaf('b', 'Equal', 2);
    const c = new ConditionTreeLeaf('c', 'Equal', 3);

    it('intersect drops nulls, splices nested Ands and accepts an array', () => {
      expect(ConditionTreeFactory.intersect(null, undefined)).toBeNull();
      expect(ConditionTreeFactory.intersect(a, null)).toBe(a);
      const tree = ConditionTreeFactory.intersect([new ConditionTreeBranch('And', [a, b]), c]);
      expect(tree?.toPlainObject()).toEqual({
        aggregator: 'And',
        conditions: [a.toPlainObject(), b.toPlainObject(), c.toPlainObject()],
      });
    });

    it('union with a match-all tree matches all, and no tree matches none', () => {
      expect(ConditionTreeFactory.union(null, a)).toBeNull();
      expect(ConditionTreeFactory.union()?.toPlainObject()).toEqual({
        aggregator: 'Or',
        conditions: [],
      });
      const tree = ConditionTreeFactory.union(new ConditionTreeBranch('Or', [a, b]), c);
      expect((tree as ConditionTreeBranch).conditions).toHaveLength(3);
    });
  });

  describe('matchIds', () => {
    it('uses Equal for one id and In for several', () => {
      const schema = schemaWithPks('id');
      expect(ConditionTreeFactory.matchIds(schema, [[1]]).toPlainObject()).toEqual({
        field: 'id',
        operator: 'Equal',
        value: 1,
      });
      expect(ConditionTreeFactory.matchIds(schema, [[1], [2]]).toPlainObject()).toEqual({
        field: 'id',
        operator: 'In',
        value: [1, 2],
      });
      expect(ConditionTreeFactory.matchIds(schema, []).toPlainObject()).toEqual({
        aggregator: 'Or',
        conditions: [],
      });
    });

    it('groups composite ids by their first column', () => {
      const schema = schemaWithPks('k1', 'k2');
      const tree = ConditionTreeFactory.matchIds(schema, [
        [1, 'a'],
        [1, 'b'],
        [2, 'c'],
      ]);
      expect(tree.toPlainObject()).toEqual({
        aggregator: 'Or',
        conditions: [
          {
            aggregator: 'And',
            conditions: [
              { field: 'k1', operator: 'Equal', value: 1 },
              { field: 'k2', operator: 'In', value: ['a', 'b'] },
            ],
          },
          {
            aggregator: 'And',
            conditions: [
              { field: 'k1', operator: 'Equal', value: 2 },
              { field: 'k2', operator: 'Equal', value: 'c' },
            ],
          },
        ],
      });
    });

    it('requires a primary key supporting Equal and In', () => {
      expect(() => ConditionTreeFactory.matchIds(createCollectionSchema(), [[1]])).toThrow(
        /at least one primary key/,
      );
      const schema = schemaWithPks('id');
      (schema.fields.id as { filterOperators: Set<string> }).filterOperators = new Set(['Equal']);
      expect(() => ConditionTreeFactory.matchIds(schema, [[1]])).toThrow(
        "Field 'id' must support operators: ['Equal', 'In']",
      );
    });

    it('matchRecords extracts ids and reports missing keys', () => {
      const schema = schemaWithPks('id');
      expect(ConditionTreeFactory.matchRecords(schema, [{ id: 3 }]).toPlainObject()).toEqual({
        field: 'id',
        operator: 'Equal',
        value: 3,
      });
      expect(() => ConditionTreeFactory.matchRecords(schema, [{ name: 'x' }])).toThrow(
        'Missing primary key: id',
      );
    });
  });
});
