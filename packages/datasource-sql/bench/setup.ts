import type { Caller } from '@canopy/agent-core';

/** PostgreSQL the benchmarks run on (PG_URL, default 127.0.0.1:5432/test). */
export const BASE_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The caller of every benchmarked operation. */
export const benchCaller: Caller = {
  id: 1,
  email: 'bench@example.com',
  firstName: 'B',
  lastName: 'B',
  team: 'B',
  role: 'B',
  tags: {},
  timezone: 'Europe/Paris',
};

/** The benchmark database's URL with `?schema=`. */
export function withSchema(schema: string): string {
  const url = new URL(BASE_URL);
  url.searchParams.set('schema', schema);
  return url.toString();
}
