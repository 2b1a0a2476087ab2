import { DataSourceCustomizer } from '../src/customizer/data-source-customizer';
import { signSessionToken } from '../src/protocol/auth/session-token';
import type { SessionClaims } from '../src/operations/session-claims';
import type { DataSource } from '../src/toolkit/interfaces/data-source';
import type { Caller } from '../src/toolkit/caller';
import { InMemoryDataSource } from '../src/toolkit/in-memory/in-memory-data-source';

/** A caller for tests. */
export function makeCaller(overrides: Partial<Caller> = {}): Caller {
  return {
    id: 1,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    team: 'Operations',
    role: 'Admin',
    tags: {},
    timezone: 'Europe/Paris',
    ...overrides,
  };
}

/**
 * A session token for an admin test user (id 1, `admin@example.com`, rendering 1), signed with
 * `authSecret`; `claims` overrides any of its claims.
 */
export function adminSessionToken(
  authSecret: string,
  claims: Partial<Omit<SessionClaims, 'iat' | 'exp'>> = {},
): string {
  return signSessionToken(
    {
      id: 1,
      email: 'admin@example.com',
      firstName: 'Admin',
      lastName: 'User',
      team: 'admin',
      role: 'Admin',
      permissionLevel: 'admin',
      renderingId: 1,
      tags: {},
      ...claims,
    },
    authSecret,
  );
}

/** A small bookshop: authors, books (ManyToOne author), orders. */
export function makeBookshop(): InMemoryDataSource {
  return new InMemoryDataSource({
    authors: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        firstName: { type: 'Column', columnType: 'String' },
        lastName: { type: 'Column', columnType: 'String' },
        country: { type: 'Column', columnType: 'String' },
        books: {
          type: 'OneToMany',
          foreignCollection: 'books',
          originKey: 'authorId',
          originKeyTarget: 'id',
        },
      },
      records: [
        { id: 1, firstName: 'Frank', lastName: 'Herbert', country: 'US' },
        { id: 2, firstName: 'Ursula', lastName: 'Le Guin', country: 'US' },
        { id: 3, firstName: 'Terry', lastName: 'Pratchett', country: 'UK' },
      ],
    },
    books: {
      fields: {
        id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, isReadOnly: true },
        title: { type: 'Column', columnType: 'String' },
        price: { type: 'Column', columnType: 'Number' },
        status: { type: 'Column', columnType: 'Enum', enumValues: ['draft', 'published'] },
        publishedAt: { type: 'Column', columnType: 'Date' },
        authorId: { type: 'Column', columnType: 'Number' },
        author: {
          type: 'ManyToOne',
          foreignCollection: 'authors',
          foreignKey: 'authorId',
          foreignKeyTarget: 'id',
        },
      },
      records: [
        {
          id: 1,
          title: 'Dune',
          price: 10,
          status: 'published',
          publishedAt: '1965-08-01T10:00:00.000Z',
          authorId: 1,
        },
        {
          id: 2,
          title: 'Children of Dune',
          price: 12,
          status: 'published',
          publishedAt: '1976-04-01T10:00:00.000Z',
          authorId: 1,
        },
        {
          id: 3,
          title: 'The Dispossessed',
          price: 9,
          status: 'published',
          publishedAt: '1974-05-01T10:00:00.000Z',
          authorId: 2,
        },
        {
          id: 4,
          title: 'Mort',
          price: 8,
          status: 'draft',
          publishedAt: '1987-11-12T23:30:00.000Z',
          authorId: 3,
        },
        {
          id: 5,
          title: 'Anonymous',
          price: null,
          status: 'draft',
          publishedAt: null,
          authorId: null,
        },
      ],
    },
  });
}

/** Builds a customizer over the bookshop, customizes it, returns the top of the stack. */
export async function buildBookshop(
  customize: (customizer: DataSourceCustomizer) => void,
  dataSource: InMemoryDataSource = makeBookshop(),
): Promise<{ dataSource: DataSource; bottom: InMemoryDataSource }> {
  const customizer = new DataSourceCustomizer().addDataSource(async () => dataSource);
  customize(customizer);
  return { dataSource: await customizer.getDataSource(), bottom: dataSource };
}
