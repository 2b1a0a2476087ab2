import { buildBookshop, makeCaller } from '../../../../test/fixtures';

const caller = makeCaller({ timezone: 'America/New_York' });

describe('charts', () => {
  const build = () =>
    buildBookshop((c) => {
      c.addChart('books per status', async (context, resultBuilder) => {
        const rows = await context.dataSource
          .getCollection('books')
          .aggregate(null, { operation: 'Count', groups: [{ field: 'status' }] });
        return resultBuilder.distribution(
          Object.fromEntries(rows.map((row) => [String(row.group.status), Number(row.value)])),
        );
      });
      c.addChart('zone', (context, resultBuilder) =>
        resultBuilder.smart({ timezone: context.timezone, parameters: context.parameters }),
      );
      c.customizeCollection('authors', (authors) =>
        authors.addChart('book count', async (context, resultBuilder) => {
          const { firstName } = await context.getRecord(['firstName']);
          const rows = await context.dataSource
            .getCollection('books')
            .aggregate(
              { conditionTree: { field: 'authorId', operator: 'Equal', value: context.recordId } },
              { operation: 'Count' },
            );
          return resultBuilder.leaderboard({ [String(firstName)]: Number(rows[0]?.value) });
        }),
      );
    });

  it('renders data-source and collection charts with their contexts', async () => {
    const { dataSource } = await build();
    expect(dataSource.schema.charts).toEqual(['books per status', 'zone']);
    expect(await dataSource.renderChart(caller, 'books per status')).toEqual([
      { key: 'published', value: 3 },
      { key: 'draft', value: 2 },
    ]);
    expect(await dataSource.renderChart(caller, 'zone', { period: 'week' })).toEqual({
      timezone: 'America/New_York',
      parameters: { period: 'week' },
    });
    const authors = dataSource.getCollection('authors');
    expect(authors.schema.charts).toEqual(['book count']);
    expect(await authors.renderChart(caller, 'book count', [1])).toEqual([
      { key: 'Frank', value: 2 },
    ]);
  });

  it('refuses duplicate chart names and reports unknown charts', async () => {
    await expect(
      buildBookshop((c) => c.addChart('x', () => 1).addChart('x', () => 2)),
    ).rejects.toThrow("Chart 'x' already exists.");
    const { dataSource } = await build();
    await expect(dataSource.renderChart(caller, 'nope')).rejects.toThrow(
      "Chart 'nope' is not defined. Available charts are: [].",
    );
  });
});
