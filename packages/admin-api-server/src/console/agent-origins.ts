import type { Knex } from 'knex';

/** How long the agents' origins are kept before they are read again. */
export const AGENT_ORIGINS_TTL_MS = 5_000;

/** The `http:`/`https:` origin of an API endpoint; undefined for anything else. */
export function originOf(apiEndpoint: string): string | undefined {
  try {
    const url = new URL(apiEndpoint);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origins of the agents (environments' `api_endpoint`) this platform holds, for the
 * console's `connect-src`. Read at most once per {@link AGENT_ORIGINS_TTL_MS} per process (and
 * one read at a time), so a changed `apiEndpoint` reaches the header of every replica within that
 * delay without any cross-process signal; a failed read keeps the last origins known.
 */
export function agentOriginsSource(
  knex: Knex,
  ttlMs = AGENT_ORIGINS_TTL_MS,
): () => Promise<readonly string[]> {
  let origins: readonly string[] = [];
  let readAt = -Infinity;
  let reading: Promise<readonly string[]> | undefined;
  const read = async (): Promise<readonly string[]> => {
    try {
      const rows: { api_endpoint: string }[] = await knex('environments')
        .whereNotNull('api_endpoint')
        .distinct('api_endpoint');
      const found = rows.map((row) => originOf(row.api_endpoint));
      origins = [...new Set(found.filter((origin) => origin !== undefined))].sort();
      readAt = Date.now();
    } finally {
      reading = undefined;
    }
    return origins;
  };
  return async () => {
    if (Date.now() - readAt < ttlMs) return origins;
    reading ??= read();
    return reading.catch(() => origins);
  };
}
