import fc from 'fast-check';
import type { ActivityLogRow } from '../../store/activity-log-queries';
import { activityLogItem, activityLogJson } from './serialize';

// Any text, including quotes, backslashes, control characters, non-BMP and lone surrogates.
const text = fc.string({ unit: 'binary', maxLength: 12 });
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
// A workflow as jsonb gives it back: any JSON values, keys possibly missing.
const jsonValue = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean());
const workflow = fc.record(
  { name: jsonValue, runId: jsonValue, stepName: jsonValue, optionName: jsonValue, other: text },
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, string>>;

const row: fc.Arbitrary<ActivityLogRow> = fc.record({
  id: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String),
  external_id: nullable(text),
  type: fc.constantFrom('read' as const, 'write' as const),
  action: text,
  label: nullable(text),
  record_ids: fc.array(text, { maxLength: 3 }),
  collection_name: nullable(text),
  inbox_name: nullable(text),
  workflow: nullable(workflow),
  created_at: fc.date({
    min: new Date('0001-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  }),
  user_id: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  user_email: text,
  user_username: text,
  team_name: text,
  status: nullable(fc.constantFrom('pending' as const, 'completed' as const, 'failed' as const)),
  error_message: nullable(text),
});

it('writes the JSON text of the item, byte for byte', () => {
  fc.assert(
    fc.property(row, text, (generated, environmentName) => {
      const pageRow = {
        ...generated,
        created_at: generated.created_at.toISOString(),
        record_ids: JSON.stringify(generated.record_ids),
      };
      expect(activityLogJson(pageRow, JSON.stringify(environmentName))).toBe(
        JSON.stringify(activityLogItem(generated, environmentName)),
      );
    }),
    { numRuns: 2_000 },
  );
});
