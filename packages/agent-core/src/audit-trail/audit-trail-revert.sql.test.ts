import { useTestDatabase } from '@canopy/test-databases';
import { createServerSandbox, TEST_USER, type ServerSandbox } from '@canopy/testing';

import type { Agent } from '../agent/agent';
import { signSessionToken } from '../protocol/auth/session-token';
import type { SessionClaims } from '../operations/session-claims';
import { restClient } from '../http/test-fixtures/rest-client';
import { startAuditAgent } from './test-fixtures/audit-agent';

const ENV_SECRET = '7c'.repeat(32);
const AUTH_SECRET = 'audit-trail-revert-secret';
const COUNT = 500;

type Entry = {
  recordId: string;
  operation: string;
  correlationKey: string;
  correlationKind: string | null;
  previousValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
};

/**
 * Correlations a client names (`x-forest-correlation-id`, and Canopy's
 * `x-canopy-correlation-kind`), and a revert done the way the Console does it: the entries of one
 * correlation read back, each record's current values compared with the entry's "after" values
 * (a field changed since is a conflict, left alone), the "before" values written with ordinary
 * `PUT`s sharing one correlation of kind `revert`.
 */
describe.each(['postgres', 'mariadb'] as const)('reverting a correlation on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let sandbox: ServerSandbox;
  let agent: Agent;
  let base: string;
  const bearer = signSessionToken(
    {
      ...TEST_USER,
      team: 'Operations',
      role: 'Admin',
      renderingId: 1,
      permissionLevel: 'admin',
      tags: {},
    } as SessionClaims,
    AUTH_SECRET,
  );

  const rest = restClient(() => base, bearer);
  const put = (id: string, attributes: Record<string, unknown>, headers = {}) =>
    rest('PUT', `/items/${id}`, {
      body: { data: { type: 'items', id, attributes } },
      headers,
    });
  const correlation = async (key: string): Promise<Entry[]> => {
    const answer = await rest('POST', '/_audit-trail/correlations', {
      body: { collection: 'items', recordId: '1', correlationKeys: [key], acrossRecords: true },
    });
    expect(answer.status).toBe(200);
    return answer.body.data as Entry[];
  };
  const labels = async () =>
    Object.fromEntries(
      ((await db().knex('items').select('id', 'label')) as { id: number; label: string }[]).map(
        (row) => [String(row.id), row.label],
      ),
    );

  /** Runs `work` on every item, a few at a time (as the Console sends a revert's writes). */
  const inBatches = async <T>(items: T[], work: (item: T) => Promise<void>) => {
    for (let start = 0; start < items.length; start += 8) {
      await Promise.all(items.slice(start, start + 8).map(work));
    }
  };

  beforeAll(async () => {
    const knex = db().knex;
    await knex.raw(
      'CREATE TABLE items (id integer PRIMARY KEY, label varchar(40) NOT NULL, qty integer NOT NULL)',
    );
    const rows = Array.from({ length: COUNT }, (_, index) => ({
      id: index + 1,
      label: `item ${index + 1}`,
      qty: index,
    }));
    for (let start = 0; start < rows.length; start += 100) {
      await knex('items').insert(rows.slice(start, start + 100));
    }
    // A history table as agents made it before correlation kinds: the agent adds the column.
    await knex.schema.createTable(`revert_history_${dialect}`, (table) => {
      table.bigIncrements('id').primary();
      table.string('correlation_id', 64).notNullable();
      table.datetime('occurred_at', { precision: 3 }).notNullable();
      table.bigInteger('caller_id').nullable();
      for (const name of ['caller_email', 'caller_first_name', 'caller_last_name']) {
        table.string(name, 255).nullable();
      }
      table.bigInteger('rendering_id').nullable();
      table.string('collection_name', 255).notNullable();
      table.string('record_id', 255).nullable();
      table.string('operation', 16).notNullable();
      table.string('action_name', 255).nullable();
      for (const name of ['before_values', 'after_values', 'changed_fields']) {
        table.text(name).nullable();
      }
    });
    sandbox = await createServerSandbox(0);
    ({ agent, base } = await startAuditAgent({
      databaseUrl: db().url,
      serverUrl: sandbox.url,
      secrets: { envSecret: ENV_SECRET, authSecret: AUTH_SECRET },
      auditTrail: { table: `revert_history_${dialect}` },
      customize: (created) =>
        created.customizeCollection('items', (items) =>
          items.addAction('Restock everything', {
            scope: 'Global',
            execute: async (context, resultBuilder) => {
              // One update of every record: one correlation of 500 history rows, each with its
              // record's own "before".
              await context.collection.update({}, { label: 'restocked' });
              return resultBuilder.success('Restocked');
            },
          }),
        ),
    }));
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await sandbox?.close();
  }, 60_000);

  it('adds the kind column to a history table made before it', async () => {
    expect(await db().knex.schema.hasColumn(`revert_history_${dialect}`, 'correlation_kind')).toBe(
      true,
    );
  });

  it('stores the correlation id and kind a request names, and returns them on the entries', async () => {
    const answer = await put(
      '1',
      { label: 'renamed' },
      {
        'x-forest-correlation-id': 'client-chosen-1',
        'x-canopy-correlation-kind': 'Revert',
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-forest-correlation-id')).toBe('client-chosen-1');
    await put('1', { label: 'item 1' }, { 'x-forest-correlation-id': 'client-chosen-1' });
    const entries = await correlation('client-chosen-1');
    expect(entries.map((entry) => [entry.newValues, entry.correlationKind])).toEqual([
      [{ label: 'renamed' }, 'revert'],
      [{ label: 'item 1' }, null],
    ]);

    // An id that does not fit (spaces, too long) and a kind that is not a word are ignored.
    const odd = await put(
      '1',
      { label: 'odd' },
      {
        'x-forest-correlation-id': 'not a valid id',
        'x-canopy-correlation-kind': 'DROP TABLE;',
      },
    );
    const fresh = odd.headers.get('x-forest-correlation-id') as string;
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect((await correlation(fresh)).map((entry) => entry.correlationKind)).toEqual([null]);
    expect(
      (
        await put('1', { label: 'item 1' }, { 'x-forest-correlation-id': 'x'.repeat(65) })
      ).headers.get('x-forest-correlation-id'),
    ).not.toBe('x'.repeat(65));
  }, 60_000);

  it('reverts the 500 updates of one request in one revert, leaving a later change alone', async () => {
    const before = await labels();
    const run = await rest('POST', '/_actions/items/0/restock-everything', {
      body: {
        data: {
          attributes: {
            collection_name: 'items',
            ids: [],
            values: {},
            all_records: true,
            all_records_ids_excluded: [],
          },
          type: 'custom-action-requests',
        },
      },
    });
    expect(run.status).toBe(200);
    const key = run.headers.get('x-forest-correlation-id') as string;
    const all = await correlation(key);
    // The action's own entry, and one per record it updated.
    expect(all.filter((entry) => entry.operation === 'action')).toHaveLength(1);
    const entries = all.filter((entry) => entry.operation === 'update');
    expect(entries).toHaveLength(COUNT);
    expect(new Set(all.map((entry) => entry.correlationKey))).toEqual(new Set([key]));

    // Someone renames item 7 afterwards: its label is no longer the correlation's "after".
    expect((await put('7', { label: 'mine' })).status).toBe(200);

    // The plan: one write per record whose fields still hold the "after" values.
    const conflicts: string[] = [];
    const writes: { id: string; values: Record<string, unknown> }[] = [];
    const current = await labels();
    for (const entry of entries) {
      const after = entry.newValues ?? {};
      const values: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(entry.previousValues ?? {})) {
        if (field === 'label' && current[entry.recordId] !== after[field]) {
          conflicts.push(`${entry.recordId}.${field}`);
        } else values[field] = value;
      }
      if (Object.keys(values).length > 0) writes.push({ id: entry.recordId, values });
    }
    expect(conflicts).toEqual(['7.label']);
    expect(writes).toHaveLength(COUNT - 1);

    const revertKey = `revert-${dialect}-${Date.now()}`;
    await inBatches(writes, async ({ id, values }) => {
      const answer = await put(id, values, {
        'x-forest-correlation-id': revertKey,
        'x-canopy-correlation-kind': 'revert',
      });
      expect(answer.status).toBe(200);
    });

    expect(before['42']).toBe('item 42');
    expect(await labels()).toEqual({ ...before, 7: 'mine' });
    const reverted = await correlation(revertKey);
    expect(reverted).toHaveLength(COUNT - 1);
    expect(reverted.every((entry) => entry.correlationKind === 'revert')).toBe(true);
    expect(reverted.find((entry) => entry.recordId === '7')).toBeUndefined();
  }, 300_000);
});
