import { ConditionTreeBranch } from './condition-tree-branch';
import { ConditionTreeLeaf } from './condition-tree-leaf';

describe('ConditionTree', () => {
  const tree = new ConditionTreeBranch('And', [
    new ConditionTreeLeaf('author:name', 'Equal', 'Ada'),
    new ConditionTreeBranch('Or', [
      new ConditionTreeLeaf('author:country', 'In', ['UK', 'FR']),
      new ConditionTreeLeaf('author:alive', 'Present'),
    ]),
  ]);

  it('inverts with De Morgan and Not operators', () => {
    expect(tree.inverse().toPlainObject()).toEqual({
      aggregator: 'Or',
      conditions: [
        { field: 'author:name', operator: 'NotEqual', value: 'Ada' },
        {
          aggregator: 'And',
          conditions: [
            { field: 'author:country', operator: 'NotIn', value: ['UK', 'FR'] },
            { field: 'author:alive', operator: 'Blank' },
          ],
        },
      ],
    });
  });

  it('refuses to invert operators without an exact negation', () => {
    expect(() => new ConditionTreeLeaf('price', 'LessThan', 3).inverse()).toThrow(
      "Operator 'LessThan' cannot be inverted (field 'price')",
    );
  });

  it('lists its fields, nests and unnests', () => {
    expect([...tree.projection]).toEqual(['author:name', 'author:country', 'author:alive']);
    const unnested = tree.unnest();
    expect([...unnested.projection]).toEqual(['name', 'country', 'alive']);
    expect(unnested.nest('writer').projection[0]).toBe('writer:name');
    expect(() => new ConditionTreeLeaf('title', 'Present').unnest()).toThrow(/Cannot unnest/);
  });

  it('replaces leaves, where null means match-all', () => {
    const replaced = tree.replaceLeafs((leaf) =>
      leaf.field === 'author:name' ? null : leaf.override({ field: 'x' }),
    );
    expect(replaced?.toPlainObject()).toEqual({
      aggregator: 'And',
      conditions: [
        {
          aggregator: 'Or',
          conditions: [
            { field: 'x', operator: 'In', value: ['UK', 'FR'] },
            { field: 'x', operator: 'Present' },
          ],
        },
      ],
    });
    const orWithMatchAll = new ConditionTreeBranch('Or', [
      new ConditionTreeLeaf('a', 'Present'),
      new ConditionTreeLeaf('b', 'Present'),
    ]).replaceLeafs((leaf) => (leaf.field === 'a' ? null : leaf));
    expect(orWithMatchAll).toBeNull();
  });

  it('answers everyLeaf and someLeaf', () => {
    expect(tree.everyLeaf((leaf) => leaf.field.startsWith('author:'))).toBe(true);
    expect(tree.someLeaf((leaf) => leaf.operator === 'Present')).toBe(true);
    expect(tree.someLeaf((leaf) => leaf.operator === 'Blank')).toBe(false);
  });
});
