import { type Readable } from 'node:stream';
import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import type { ActionField } from '../../../toolkit/action/action-form';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';

const caller = makeCaller();
const book = (id: number) =>
  new Filter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', id) });

describe('addAction', () => {
  it('executes with a context over the selection and a result builder', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books
          .addAction('Discount', {
            scope: 'Single',
            form: [{ label: 'Percent', type: 'Number', isRequired: true }],
            execute: async (context, resultBuilder) => {
              const { price } = await context.getRecord(['price']);
              const id = await context.getRecordId();
              const title = await context.getField('author:lastName');
              await context.collection.update(context.filter, {
                price: Number(price) * (1 - Number(context.formValues.Percent) / 100),
              });
              return resultBuilder
                .setHeader('x-book', String(id))
                .success(`Discounted ${String(title)}`, { invalidated: ['books'] });
            },
          })
          .addAction('Export', {
            scope: 'Global',
            generateFile: true,
            execute: async (context, resultBuilder) => {
              const ids = await context.getRecordIds();
              return resultBuilder.file(ids.join(','), 'ids.csv', 'text/csv');
            },
          })
          .addAction('Nothing', { scope: 'Bulk', execute: () => undefined }),
      ),
    );
    const books = dataSource.getCollection('books');
    const result = await books.execute(caller, 'Discount', { Percent: 50 }, book(1));
    expect(result).toEqual({
      type: 'Success',
      message: 'Discounted Herbert',
      html: undefined,
      invalidated: new Set(['books']),
      responseHeaders: { 'x-book': '1' },
    });
    const [updated] = await books.list(
      caller,
      new PaginatedFilter({ ...book(1) }),
      new Projection('price'),
    );
    expect(updated).toEqual({ price: 5 });

    const file = await books.execute(
      caller,
      'Export',
      {},
      new Filter({ conditionTree: new ConditionTreeLeaf('price', 'LessThan', 9) }),
    );
    expect(file).toMatchObject({ type: 'File', name: 'ids.csv', mimeType: 'text/csv' });
    const chunks: Buffer[] = [];
    for await (const chunk of (file as { stream: Readable }).stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('1,4');

    expect(await books.execute(caller, 'Nothing', {}, book(1))).toMatchObject({
      type: 'Success',
      message: 'Success',
    });
    expect(books.schema.actions.Discount).toEqual({
      scope: 'Single',
      generateFile: false,
      staticForm: true,
      description: undefined,
      submitButtonLabel: undefined,
    });
  });

  it('fails clearly when a Single action matches no record', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books.addAction('Read', {
          scope: 'Single',
          execute: async (context) => void (await context.getRecord(['title'])),
        }),
      ),
    );
    await expect(
      dataSource.getCollection('books').execute(caller, 'Read', {}, book(42)),
    ).rejects.toThrow("Query with filter did not match any records (collection 'books').");
  });

  it('computes dynamic forms: defaults, if, dynamic values, options with search, watchChanges', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books.addAction('Refund', {
          scope: 'Single',
          form: [
            { label: 'Kind', type: 'Enum', enumValues: ['full', 'partial'], defaultValue: 'full' },
            {
              label: 'Amount',
              type: 'Number',
              if: (context) => context.formValues.Kind === 'partial',
            },
            {
              label: 'Reason',
              type: 'String',
              widget: 'Dropdown',
              search: 'dynamic',
              options: (_context, searchValue) =>
                ['damaged', 'late', 'other'].filter((o) => !searchValue || o.includes(searchValue)),
            },
            {
              label: 'Title',
              type: 'String',
              id: 'title',
              defaultValue: async (context) => (await context.getRecord(['title'])).title,
            },
          ],
          execute: () => undefined,
        }),
      ),
    );
    const books = dataSource.getCollection('books');
    expect(books.schema.actions.Refund?.staticForm).toBe(false);

    const initial = (await books.getForm(caller, 'Refund', {}, book(1))) as ActionField[];
    expect(initial.map((f) => [f.id, f.value, f.watchChanges])).toEqual([
      ['Kind', 'full', true],
      ['Reason', undefined, false],
      ['title', 'Dune', false],
    ]);
    expect(initial[1]?.options).toEqual([
      { value: 'damaged', label: 'damaged' },
      { value: 'late', label: 'late' },
      { value: 'other', label: 'other' },
    ]);

    const partial = (await books.getForm(
      caller,
      'Refund',
      { Kind: 'partial', title: 'x' },
      book(1),
      { changedField: 'Kind' },
    )) as ActionField[];
    expect(partial.map((f) => f.id)).toEqual(['Kind', 'Amount', 'Reason', 'title']);
    expect(partial[3]?.value).toBe('x');

    const searched = (await books.getForm(caller, 'Refund', {}, book(1), {
      searchField: 'Reason',
      searchValue: 'at',
    })) as ActionField[];
    expect(searched).toEqual([
      expect.objectContaining({ id: 'Reason', options: [{ value: 'late', label: 'late' }] }),
    ]);
  });

  it('refuses forms mixing pages and fields, bad scopes and long button labels', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('books', (books) =>
        books.addAction('Mixed', {
          scope: 'Global',
          form: [
            { type: 'Layout', component: 'Page', elements: [{ label: 'A', type: 'String' }] },
            { label: 'B', type: 'String' },
          ],
          execute: () => undefined,
        }),
      ),
    );
    await expect(dataSource.getCollection('books').getForm(caller, 'Mixed')).rejects.toThrow(
      'You cannot mix pages and other form elements',
    );
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b.addAction('X', { scope: 'Everything' as never, execute: () => undefined }),
        ),
      ),
    ).rejects.toThrow(
      "Action 'books.X' has an invalid scope 'Everything'. Expected one of: Single, Bulk, Global.",
    );
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b.addAction('X', {
            scope: 'Bulk',
            submitButtonLabel: 'x'.repeat(51),
            execute: () => undefined,
          }),
        ),
      ),
    ).rejects.toThrow('longer than 50 characters');
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) =>
          b
            .addAction('X', { scope: 'Bulk', execute: () => undefined })
            .addAction('X', { scope: 'Bulk', execute: () => undefined }),
        ),
      ),
    ).rejects.toThrow("Action 'X' is already defined in collection 'books'.");
  });

  it('delegates unknown actions to the layer below', async () => {
    const { dataSource } = await buildBookshop(() => undefined);
    await expect(dataSource.getCollection('books').execute(caller, 'Nope', {})).rejects.toThrow(
      "Action 'Nope' is not implemented on collection 'books'.",
    );
  });
});
