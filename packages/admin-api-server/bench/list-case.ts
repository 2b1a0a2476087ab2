/**
 * The list request the benches load: user 7's `update` logs of the Bench project's Production
 * environment since a quarter into the generated year, 100 a page, with a bench application
 * token; the first page and a deep cursor page 80% down the matching rows.
 */
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { AdminApiServer } from '../src';
import type { issueApplicationToken } from '../src';
import type { SigningKey } from '../src/config';
import type { activityLogQuery, ActivityLogFilters } from '../src/store/activity-log-queries';
import type { encodeTimeCursor } from '../src/store/cursor';

/** Start of the generated year, and its length. */
export const T0 = Date.parse('2025-01-01T00:00:00.000Z');
export const SPAN_MS = 365 * 86_400_000;

/**
 * The functions of the checkout being measured (they may be another worktree's): the token's
 * issue, the list's query and its cursor.
 */
export interface ListCaseCode {
  issueApplicationToken: typeof issueApplicationToken;
  activityLogQuery: typeof activityLogQuery;
  encodeTimeCursor: typeof encodeTimeCursor;
}

/**
 * What a bench needs of the checkout whose `packages/admin-api-server` is `tree` (this one or
 * another worktree): its bench server and keys, and its {@link ListCaseCode}, loaded from its own
 * sources so that each version issues its token and writes its cursor and SQL its own way.
 */
export function checkoutCode(tree: string): {
  benchServer(url: string, poolSize: number): Promise<AdminApiServer>;
  keys: readonly SigningKey[];
  code: ListCaseCode;
} {
  /* eslint-disable @typescript-eslint/no-require-imports -- the measured checkout's own modules */
  const data = require(join(tree, 'bench', 'bench-data.ts'));
  return {
    benchServer: data.benchServer,
    keys: data.BENCH_KEYS,
    code: {
      issueApplicationToken: require(join(tree, 'src')).issueApplicationToken,
      activityLogQuery: require(join(tree, 'src', 'store', 'activity-log-queries.ts'))
        .activityLogQuery,
      encodeTimeCursor: require(join(tree, 'src', 'store', 'cursor.ts')).encodeTimeCursor,
    },
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export interface ListCase {
  token: string;
  userId: number;
  since: string;
  filters: ActivityLogFilters;
  matching: number;
  deepOffset: number;
  /** The row the deep page starts after. */
  deepRow: { created_at: Date; id: number | string };
  /** The first page's path and query; the deep page adds `&cursor=` {@link ListCase.cursor}. */
  path: string;
  cursor: string;
}

export async function listCase(
  knex: Knex,
  keys: readonly SigningKey[],
  code: ListCaseCode,
  tokenName: string,
): Promise<ListCase> {
  const project = await knex('projects').where({ name: 'Bench' }).first();
  if (!project) throw new Error('no Bench project: run list-activity-logs.bench.ts first');
  const environment = await knex('environments')
    .where({ project_id: project.id, name: 'Production' })
    .first();
  const user = await knex('users').where({ email: 'user7@bench.example' }).first();
  const { token } = await code.issueApplicationToken(knex, keys, {
    project,
    userId: user.id,
    name: tokenName,
    scopes: ['activity_logs:read'],
    expiresAt: new Date(Date.now() + 3_600_000),
    viaSso: false,
  });
  const since = new Date(T0 + SPAN_MS / 4).toISOString();
  const filters: ActivityLogFilters = {
    projectId: project.id,
    environmentId: environment.id,
    userId: user.id,
    action: 'update',
    createdAt: { gte: since },
  };
  const counted = await code
    .activityLogQuery(knex, filters)
    .clearSelect()
    .clearOrder()
    .count({ n: '*' });
  const matching = Number((counted[0] as { n: string | number }).n);
  const deepOffset = Math.max(0, Math.min(matching - 100, Math.floor(matching * 0.8)));
  const deepRow = await code.activityLogQuery(knex, filters).offset(deepOffset).first();
  return {
    token,
    userId: user.id,
    since,
    filters,
    matching,
    deepOffset,
    deepRow,
    path: `/v1/project/Bench/environment/Production/activity-logs?limit=100&userId=${user.id}&action=update&createdAt.gte=${encodeURIComponent(since)}`,
    cursor: code.encodeTimeCursor({ createdAt: deepRow.created_at, id: String(deepRow.id) }),
  };
}
