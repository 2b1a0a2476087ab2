import { makeBookshop } from '../../../test/fixtures';
import { ConditionTreeFactory } from '../query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import { Aggregation } from '../query/aggregation';
import { validateConditionTree } from './condition-tree-validator';
import { validateAggregation, validateProjection, validateSort } from './query-validators';
import { validateRecord } from './record-validator';
import { validateFieldName } from './field-path';

describe('validators', () => {
  const books = makeBookshop().getCollection('books');

  it('accepts a valid tree through relations', () => {
    expect(() =>
      validateConditionTree(
        books,
        ConditionTreeFactory.intersect(
          new ConditionTreeLeaf('author:country', 'In', ['US', null]),
          new ConditionTreeLeaf('publishedAt', 'PreviousXDays', 3),
          new ConditionTreeLeaf('title', 'Match', /^D/),
        ),
      ),
    ).not.toThrow();
  });

  it.each([
    [
      new ConditionTreeLeaf('nope', 'Equal', 1),
      "The 'books.nope' field was not found. Available fields are: ['author', 'authorId', 'id', 'price', 'publishedAt', 'status', 'title'].",
    ],
    [
      new ConditionTreeLeaf('price', 'Contains', 'x'),
      "The given operator 'Contains' is not supported by the column: 'books.price'.",
    ],
    [
      new ConditionTreeLeaf('price', 'Equal', 'ten'),
      'The given value has a wrong type for "books.price": "ten". Expects Number.',
    ],
    [
      new ConditionTreeLeaf('status', 'In', ['lost']),
      'The given enum value(s) "lost" is not listed in [draft, published]',
    ],
    [
      new ConditionTreeLeaf('price', 'Present', 3),
      'Operator \'Present\' on "books.price" takes no value, got 3.',
    ],
    [
      new ConditionTreeLeaf('title', 'LongerThan', '3'),
      'Operator \'LongerThan\' on "books.title" expects a number',
    ],
    [
      new ConditionTreeLeaf('author', 'Present'),
      "Unexpected field type: 'books.author' (found 'ManyToOne' expected 'Column').",
    ],
    [
      new ConditionTreeLeaf('author:books:id', 'Equal', 1),
      "Unexpected field type: 'authors.books' (found 'OneToMany' expected 'ManyToOne' or 'OneToOne').",
    ],
  ])('rejects %p', (tree, message) => {
    expect(() => validateConditionTree(books, tree)).toThrow(message);
  });

  it('validates projections, sorts and aggregations', () => {
    expect(() => validateProjection(books, ['title', 'author:lastName'])).not.toThrow();
    expect(() => validateProjection(books, ['author'])).toThrow(/found 'ManyToOne'/);
    expect(() => validateSort(books, [{ field: 'title', ascending: 'yes' as never }])).toThrow(
      'Invalid sort.ascending value',
    );
    expect(() =>
      validateAggregation(books, new Aggregation({ operation: 'Sum', field: 'nope' })),
    ).toThrow(/'books.nope' field was not found/);
  });

  it('validates records, including nested to-one relations and read-only fields', () => {
    expect(() => validateRecord(books, { title: 'X', author: { firstName: 'Y' } })).not.toThrow();
    expect(() => validateRecord(books, { author: { firstName: 3 } })).toThrow(
      '"authors.firstName": 3',
    );
    expect(() => validateRecord(books, { id: 3 })).toThrow("The 'books.id' field is read-only");
  });

  it('suggests a camel-cased field name when a name has spaces', () => {
    expect(() => validateFieldName('users', 'full name')).toThrow(
      "Something like 'fullName' should work.",
    );
  });
});
