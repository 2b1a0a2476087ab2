import { makeBookshop } from '../../../test/fixtures';
import { isValidated } from '../../toolkit/validation/validated';
import { parseConditionTreeJson, parseFilters } from './filters';

describe('parseFilters', () => {
  const books = makeBookshop().getCollection('books');

  it('hands over a tree marked as validated, so that no layer below walks it again', () => {
    const tree = parseFilters(
      books,
      JSON.stringify({ field: 'price', operator: 'equal', value: '3' }),
    );
    expect(tree?.toPlainObject()).toEqual({ field: 'price', operator: 'Equal', value: 3 });
    expect(isValidated(tree)).toBe(true);
    const scope = parseConditionTreeJson(
      books,
      { aggregator: 'or', conditions: [{ field: 'title', operator: 'present' }] },
      'scope',
    );
    expect(isValidated(scope)).toBe(true);
  });

  it('refuses an invalid tree with a validation error', () => {
    expect(() =>
      parseFilters(books, JSON.stringify({ field: 'price', operator: 'equal', value: 'ten' })),
    ).toThrow('wrong type');
  });
});
