import { buildBookshop, makeCaller } from '../../../../test/fixtures';
import { InMemoryDataSource } from '../../../toolkit/in-memory/in-memory-data-source';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';

const caller = makeCaller();
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

function makeFiles(): InMemoryDataSource {
  return new InMemoryDataSource({
    files: {
      fields: {
        hash: { type: 'Column', columnType: 'Binary', isPrimaryKey: true },
        content: {
          type: 'Column',
          columnType: 'Binary',
          validation: [{ operator: 'LongerThan', value: 2 }],
        },
        thumbnail: { type: 'Column', columnType: 'Binary' },
      },
      records: [
        { hash: Buffer.from('cafe', 'hex'), content: PNG, thumbnail: Buffer.from('ab', 'hex') },
      ],
    },
  });
}

describe('binary fields', () => {
  // Lists skip the conversion while no collection of the data source has a binary column; a
  // computed binary field added by a customization must end that.
  it('converts a computed binary field of a data source without binary columns', async () => {
    const { dataSource } = await buildBookshop((c) =>
      c.customizeCollection('authors', (a) =>
        a.addField('avatar', {
          columnType: 'Binary',
          dependencies: ['id'],
          getValues: (records) => records.map(() => PNG),
        }),
      ),
    );
    const [book] = await dataSource
      .getCollection('books')
      .list(
        caller,
        new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('id', 'Equal', 4) }),
        new Projection('title', 'author:avatar'),
      );
    expect(book).toEqual({
      title: 'Mort',
      author: { avatar: `data:image/png;base64,${PNG.toString('base64')}` },
    });
  });

  it('exposes bytes as hex (keys) or data URIs (others), and converts filters and writes back', async () => {
    const files = makeFiles();
    const { dataSource } = await buildBookshop(
      (c) => c.customizeCollection('files', (f) => f.replaceFieldBinaryMode('thumbnail', 'hex')),
      files,
    );
    const collection = dataSource.getCollection('files');
    expect(collection.schema.fields.content).toMatchObject({
      columnType: 'String',
      validation: [
        { operator: 'LongerThan', value: 2 },
        { operator: 'Match', value: /^data:.*;base64,.*/ },
      ],
    });
    expect(collection.schema.fields.hash).toMatchObject({
      columnType: 'String',
      validation: [{ operator: 'Match', value: /^[0-9a-f]+$/ }],
    });

    const [record] = await collection.list(
      caller,
      new PaginatedFilter({ conditionTree: new ConditionTreeLeaf('hash', 'In', ['cafe']) }),
      new Projection('hash', 'content', 'thumbnail'),
    );
    expect(record).toEqual({
      hash: 'cafe',
      content: `data:image/png;base64,${PNG.toString('base64')}`,
      thumbnail: 'ab',
    });

    await collection.update(
      caller,
      new Filter({ conditionTree: new ConditionTreeLeaf('hash', 'Equal', 'cafe') }),
      {
        content: 'data:text/plain;base64,aGVsbG8=',
      },
    );
    expect(files.getCollection('files').records[0]?.content).toEqual(Buffer.from('hello'));
    await expect(collection.update(caller, new Filter(), { thumbnail: 'xyz' })).rejects.toThrow(
      '"files.thumbnail" expects a hex string, got "xyz".',
    );
  });

  it('refuses invalid modes and non-binary fields', async () => {
    await expect(
      buildBookshop(
        (c) =>
          c.customizeCollection('files', (f) =>
            f.replaceFieldBinaryMode('content', 'base32' as never),
          ),
        makeFiles(),
      ),
    ).rejects.toThrow("Invalid binary mode 'base32' for 'files.content'");
    await expect(
      buildBookshop((c) =>
        c.customizeCollection('books', (b) => b.replaceFieldBinaryMode('title', 'hex')),
      ),
    ).rejects.toThrow("Expected a binary field: 'books.title'");
  });
});
