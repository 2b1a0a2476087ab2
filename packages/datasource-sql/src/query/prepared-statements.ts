import { randomBytes } from 'node:crypto';
import { StatementCache } from './statement-cache';

/** The part of a `pg` client that names statements. */
export interface PgSession {
  query(text: string, callback: (error: Error | null) => void): void;
  /** pg's record of the statements it parsed on this connection, by name (internal to pg). */
  connection?: {
    parsedStatements?: Record<string, unknown>;
    submittedNamedStatements?: Record<string, unknown>;
  };
}

/** The names given on one connection, by SQL text, and the next number to give. */
interface Names {
  /** Least recently used first out, a use only stamping its entry (statement-cache.ts). */
  byText: StatementCache<string>;
  next: number;
}

/**
 * Named prepared statements on PostgreSQL connections: each cached SELECT gets a name on each
 * connection it runs on, so that PostgreSQL parses and plans it once per connection (pg sends
 * Parse with the first use of a name, then only Bind/Execute). At most `perConnection` names are
 * kept on one connection: the least recently used one is deallocated on the server when a new one
 * would exceed it. A name is never given twice on a connection, so a forgotten statement is
 * prepared again under a new name. Names start with a prefix drawn for this instance: a server
 * session that outlives the connection (behind a pooler) holds no statement of that name from
 * another process or data source, so it answers "does not exist" (prepared again) rather than
 * running someone else's statement.
 */
export class PreparedStatements {
  private readonly connections = new WeakMap<PgSession, Names>();
  /** `canopy_<8 hex digits>_`, then a number per connection. */
  readonly prefix = `canopy_${randomBytes(4).toString('hex')}_`;

  constructor(
    /** Most statements kept prepared on one connection. */
    readonly perConnection: number,
  ) {}

  /** The name of `text` on `connection`, a new one when it is not prepared there yet. */
  name(connection: PgSession, text: string): string {
    let names = this.connections.get(connection);
    if (names === undefined) {
      names = { byText: new StatementCache(this.perConnection), next: 1 };
      this.connections.set(connection, names);
    }
    const known = names.byText.get(text);
    if (known !== undefined) return known;
    if (names.byText.size >= this.perConnection) {
      const oldest = names.byText.leastRecentlyUsed();
      if (oldest !== undefined) this.forget(connection, oldest);
    }
    const name = `${this.prefix}${names.next}`;
    names.next += 1;
    names.byText.set(text, name);
    return name;
  }

  /** How many statements are prepared on `connection` (for tests). */
  count(connection: PgSession): number {
    return this.connections.get(connection)?.byText.size ?? 0;
  }

  /**
   * Deallocates `text`'s statement on `connection` (after an eviction, or when the server refused
   * it because a table changed): the next use prepares it again under a new name.
   */
  forget(connection: PgSession, text: string): void {
    const names = this.connections.get(connection);
    const name = names?.byText.delete(text);
    if (name === undefined) return;
    // Queued before the connection's next query. A failure (the statement was already gone, or
    // the connection broke) leaves nothing to clean up on the server.
    connection.query(`DEALLOCATE ${name}`, () => undefined);
    // pg keeps the text of every statement it parsed, by name, for the life of the connection.
    delete connection.connection?.parsedStatements?.[name];
    delete connection.connection?.submittedNamedStatements?.[name];
  }
}

/**
 * Whether PostgreSQL refused to run a prepared statement that a new Parse would fix: its result
 * type changed (a table was altered since it was prepared: "cached plan must not change result
 * type"), or it no longer exists on the server (DISCARD ALL, DEALLOCATE ALL).
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, routine } = (error ?? {}) as { code?: unknown; routine?: unknown };
  return (code === '0A000' && routine === 'RevalidateCachedQuery') || code === '26000';
}
