import { ACCESS_CHANGES_CHANNEL, publishAccessChange } from '../store/access-changes';
import type { TokenContextRow } from '../store/application-tokens';

export { ACCESS_CHANGES_CHANNEL, publishAccessChange };

/** How long a token's context is reused when no change was announced. */
export const TOKEN_CONTEXT_TTL_MS = 5_000;
/** Contexts kept at most (the oldest go first); one per token and environment name. */
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly row: TokenContextRow;
  readonly until: number;
}

/**
 * The contexts of application tokens (their row, project, creator's level, environment) kept in
 * this process for {@link TOKEN_CONTEXT_TTL_MS}, so that a busy integration's reads do not each
 * query them. Only while `live`: while this process listens on {@link ACCESS_CHANGES_CHANNEL}
 * (the event hub says so), since only then does a revocation on another replica reach it at
 * once; otherwise every request reads the database, as before. A change announced on the channel
 * empties the cache; a read that started before it is not stored (its row may be the old one).
 * Expiry is checked on every request from the cached row. A change made by direct SQL, without
 * {@link publishAccessChange}, is seen within the TTL.
 */
export class TokenContextCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private live = false;

  constructor(private readonly ttlMs = TOKEN_CONTEXT_TTL_MS) {}

  /** Whether contexts are cached now (changes can be heard). */
  get enabled(): boolean {
    return this.live && this.ttlMs > 0;
  }

  /** Turns caching on while changes are heard, off (and empties it) when they may be missed. */
  setLive(live: boolean): void {
    this.live = live;
    this.clear();
  }

  /** Forgets every context (a change was announced). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** The context of a token and environment name, from the cache or from `load`. */
  async get(
    tokenIdHash: string,
    environmentName: string | undefined,
    load: () => Promise<TokenContextRow | undefined>,
  ): Promise<TokenContextRow | undefined> {
    if (!this.enabled) return load();
    const key = `${tokenIdHash}\u0000${environmentName ?? ''}`;
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.until > now) return cached.row;
    const generation = this.generation;
    const row = await load();
    // Unknown tokens are not remembered: nothing is gained by it, and a row inserted later would
    // stay unseen until the entry expires.
    if (row && generation === this.generation && this.enabled) {
      this.entries.delete(key);
      if (this.entries.size >= MAX_ENTRIES) {
        this.entries.delete(this.entries.keys().next().value as string);
      }
      this.entries.set(key, { row, until: now + this.ttlMs });
    }
    return row;
  }
}
