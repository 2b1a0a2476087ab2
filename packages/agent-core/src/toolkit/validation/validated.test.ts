import { makeBookshop } from '../../../test/fixtures';
import { ConditionTreeFactory } from '../query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import { validateConditionTree, validateConditionTreeOnce } from './condition-tree-validator';
import { forgetValidated, isValidated, markValidated } from './validated';

describe('validated marks', () => {
  const books = makeBookshop().getCollection('books');

  it('are set by the validator, kept by intersect and union of marked trees, lost otherwise', () => {
    const paid = new ConditionTreeLeaf('price', 'GreaterThan', 3);
    const title = new ConditionTreeLeaf('title', 'Equal', 'Dune');
    expect(isValidated(paid)).toBe(false);
    validateConditionTree(books, paid);
    expect(isValidated(paid)).toBe(true);
    expect(isValidated(ConditionTreeFactory.intersect(paid, null))).toBe(true);
    expect(isValidated(ConditionTreeFactory.intersect(paid, title))).toBe(false);
    validateConditionTree(books, title);
    expect(isValidated(ConditionTreeFactory.intersect(paid, title))).toBe(true);
    expect(isValidated(ConditionTreeFactory.union(paid, title))).toBe(true);
    expect(isValidated(ConditionTreeFactory.MatchNone)).toBe(true);
    expect(isValidated(title.inverse())).toBe(false);
  });

  it('make validateConditionTreeOnce trust a tree, until a schema change forgets them', () => {
    const wrong = new ConditionTreeLeaf('price', 'Equal', 'ten');
    expect(() => validateConditionTreeOnce(books, wrong)).toThrow('wrong type');
    markValidated(wrong);
    expect(() => validateConditionTreeOnce(books, wrong)).not.toThrow();
    forgetValidated();
    expect(isValidated(wrong)).toBe(false);
    expect(() => validateConditionTreeOnce(books, wrong)).toThrow('wrong type');
  });
});
