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

describe('the mark an object carries', () => {
  it('is hidden from copies, keys and JSON', () => {
    const record = markValidated({ title: 'Dune', price: 9 });
    expect(isValidated(record)).toBe(true);
    expect(isValidated({ ...record })).toBe(false);
    expect(isValidated(Object.assign({}, record))).toBe(false);
    expect(Object.keys(record)).toEqual(['title', 'price']);
    expect(JSON.stringify(record)).toBe('{"title":"Dune","price":9}');
  });

  it('is renewed in a new epoch, also on an object frozen after it was first marked', () => {
    const patch = markValidated({ price: 10 });
    Object.freeze(patch);
    forgetValidated();
    expect(isValidated(patch)).toBe(false);
    expect(() => markValidated(patch)).not.toThrow();
    expect(isValidated(patch)).toBe(false);
    const open = markValidated({ price: 11 });
    forgetValidated();
    markValidated(open);
    expect(isValidated(open)).toBe(true);
  });

  it('is not taken by an object frozen before validation, which stays unmarked', () => {
    const frozen = Object.freeze({ price: 12 });
    expect(() => markValidated(frozen)).not.toThrow();
    expect(isValidated(frozen)).toBe(false);
  });

  it('lives on the object, not on the global object', () => {
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain(
      'Symbol(@canopy/agent-core/validated)',
    );
  });
});
