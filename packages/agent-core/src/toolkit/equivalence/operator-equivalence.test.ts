import { DateTime } from 'luxon';
import { compileLeaf } from '../evaluator/match-leaf';
import { compileTree } from '../evaluator/match-record';
import type { EvaluationContext } from '../evaluator/time-zone';
import { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import {
  MINIMAL_OPERATORS,
  OPERATORS_BY_TYPE,
  VALUELESS_OPERATORS,
  type Operator,
} from '../query/operators';
import type { ColumnType, PrimitiveType } from '../schema/column-type';
import { getEquivalentOperators, rewriteLeaf, rewriteTree } from './operator-equivalence';

const CORE: Operator[] = ['Present', 'Missing', 'Equal', 'NotEqual', 'In', 'NotIn'];
const ORDER: Operator[] = ['LessThan', 'GreaterThan', 'LessThanOrEqual', 'GreaterThanOrEqual'];

/** Native sets of the SQL data source (data-semantics §4.5) and the minimal catalogue. */
const NATIVE_SETS: Record<string, Partial<Record<PrimitiveType | 'array', Operator[]>>> = {
  sql: {
    String: [...CORE, ...ORDER, 'Like', 'ILike', 'NotContains', 'NotIContains'],
    Number: [...CORE, ...ORDER],
    Date: [...CORE, ...ORDER],
    Dateonly: [...CORE, ...ORDER],
    Boolean: [...CORE],
    Enum: [...CORE],
    Uuid: [...CORE],
    array: ['Present', 'Missing', 'Equal', 'NotEqual', 'IncludesAll', 'IncludesNone'],
  },
  minimal: {
    String: [...MINIMAL_OPERATORS],
    Number: [...MINIMAL_OPERATORS],
    Date: [...MINIMAL_OPERATORS],
    Dateonly: [...MINIMAL_OPERATORS],
    Boolean: [...MINIMAL_OPERATORS],
    array: [...MINIMAL_OPERATORS],
  },
  nullChecks: {
    String: ['Missing', 'Equal', 'NotEqual'],
    Number: ['Missing', 'NotEqual'],
  },
  equalAndOrder: {
    Date: ['Equal', 'LessThan', 'GreaterThan'],
    Dateonly: ['Equal', 'LessThan', 'GreaterThan'],
    Number: ['Equal', 'NotEqual', 'LessThan', 'GreaterThan'],
  },
};

/** Values an operator is tested with, per column type. */
function valuesFor(operator: Operator, type: PrimitiveType | 'array'): unknown[] {
  const samples: Record<string, unknown[]> = {
    String: ['abc', '', 'a%c', 'A'],
    Number: [0, 2.5, -3],
    Date: ['2024-03-31T01:30:00Z', '2024-03-31T03:00:00+02:00', '2024-03-15'],
    Dateonly: ['2024-03-31', '2024-01-01'],
    Boolean: [true, false],
    Enum: ['draft', 'paid'],
    Uuid: ['7c9e6679-7425-40de-944b-e07fc1f90ae7'],
    array: ['x', 'y'],
  };
  const scalar = samples[type] ?? [];
  switch (operator) {
    case 'In':
    case 'NotIn':
      return type === 'array'
        ? [[['x', 'y']], [], [null, ['x']]]
        : [[], scalar.slice(0, 2), [null, scalar[0]]];
    case 'IncludesAll':
    case 'IncludesNone':
      return [[], ['x'], ['x', 'y']];
    case 'Like':
    case 'ILike':
      return ['a%', '%C', 'a\\%c', '_b_', '%'];
    case 'Contains':
    case 'StartsWith':
    case 'EndsWith':
    case 'IContains':
    case 'IStartsWith':
    case 'IEndsWith':
    case 'NotContains':
    case 'NotIContains':
      return ['a', 'B', '%', '_', 'a%c'];
    case 'Match':
      return [/^a/, '/c$/i'];
    case 'LongerThan':
    case 'ShorterThan':
      return [0, 2];
    case 'BeforeXHoursAgo':
    case 'AfterXHoursAgo':
      return [0, 5, 30];
    case 'PreviousXDays':
    case 'PreviousXDaysToDate':
      return [0, 1, 3];
    default:
      return (VALUELESS_OPERATORS as readonly Operator[]).includes(operator) ? [undefined] : scalar;
  }
}

/** Instants around the period boundaries of a scenario, plus a coarse grid. */
function dateRecords(context: EvaluationContext, type: 'Date' | 'Dateonly'): unknown[] {
  const now = DateTime.fromJSDate(context.now as Date, { zone: context.timezone });
  const moments: DateTime[] = [];
  for (const unit of ['day', 'week', 'month', 'quarter', 'year'] as const) {
    for (const shift of [0, -1, -2]) {
      const start = now.startOf(unit).plus({ [`${unit}s`]: shift });
      moments.push(start, start.minus({ milliseconds: 1 }), start.plus({ minutes: 30 }));
    }
  }
  for (let hour = -24 * 400; hour <= 24 * 30; hour += 17) moments.push(now.plus({ hours: hour }));
  moments.push(now, now.minus({ hours: 5 }), now.minus({ hours: 30 }));
  const values = moments.map((moment) =>
    type === 'Date' ? moment.toUTC().toISO() : moment.toISODate(),
  );
  return [null, undefined, ...values];
}

const SCALAR_RECORDS: Record<string, unknown[]> = {
  String: [null, undefined, '', 'abc', 'ABC', 'a%c', 'a_c', 'xabcx', 'b', 'tea time', 'A', 'a\\c'],
  Number: [null, undefined, -3, 0, 1, 2.5, 10, '7'],
  Boolean: [null, undefined, true, false],
  Enum: [null, undefined, 'draft', 'paid', 'refunded'],
  Uuid: [
    null,
    undefined,
    '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    '00000000-0000-0000-0000-000000000000',
  ],
  array: [null, undefined, [], ['x'], ['y'], ['x', 'y'], ['z']],
};

/** Time-zone scenarios: a DST change, callers far from UTC, week/quarter/year boundaries. */
const SCENARIOS: [string, EvaluationContext][] = [
  [
    'Paris on the spring DST change',
    { timezone: 'Europe/Paris', now: new Date('2024-03-31T01:30:00Z') },
  ],
  [
    'New York on the autumn DST change',
    { timezone: 'America/New_York', now: new Date('2024-11-03T06:30:00Z') },
  ],
  [
    'Kiritimati (UTC+14) on a Monday',
    { timezone: 'Pacific/Kiritimati', now: new Date('2024-07-01T10:00:00Z') },
  ],
  [
    'Pago Pago (UTC-11) at a quarter start',
    { timezone: 'Pacific/Pago_Pago', now: new Date('2024-10-01T12:00:00Z') },
  ],
  ['UTC on New Year', { timezone: 'UTC', now: new Date('2025-01-01T00:00:00.000Z') }],
];

function nativeLeaves(tree: ReturnType<typeof rewriteLeaf>): Operator[] {
  const operators: Operator[] = [];
  tree?.forEachLeaf((leaf) => operators.push(leaf.operator));
  return operators;
}

function checkEquivalence(
  type: PrimitiveType | 'array',
  native: ReadonlySet<Operator>,
  records: unknown[],
  context: EvaluationContext,
) {
  const columnType: ColumnType = type === 'array' ? ['String'] : type;
  const allowed = type === 'array' ? OPERATORS_BY_TYPE.Enum : OPERATORS_BY_TYPE[type];
  const available = getEquivalentOperators(native, columnType);
  let checked = 0;
  for (const operator of allowed) {
    if (native.has(operator) || !available.has(operator)) continue;
    for (const value of valuesFor(operator, type)) {
      const leaf = new ConditionTreeLeaf('field', operator, value);
      const rewritten = rewriteLeaf(leaf, native, columnType, context);
      expect({
        operator,
        value,
        leaves: nativeLeaves(rewritten).filter((op) => !native.has(op)),
      }).toEqual({ operator, value, leaves: [] });
      const direct = records.filter(compileLeaf(operator, value, columnType, context));
      const predicate = compileTree(rewritten, () => columnType, context);
      const viaRewrite = records.filter((record) => predicate({ field: record }));
      expect({ operator, value, records: viaRewrite }).toEqual({
        operator,
        value,
        records: direct,
      });
      checked += 1;
    }
  }
  return checked;
}

describe('operator equivalences', () => {
  describe.each(Object.entries(NATIVE_SETS))('with the %s native set', (_name, sets) => {
    const scalarTypes = Object.keys(sets).filter((type) => type !== 'Date' && type !== 'Dateonly');

    it.each(scalarTypes)('rewrites %s operators to the same records', (type) => {
      const native = new Set(sets[type as PrimitiveType] ?? []);
      const checked = checkEquivalence(type as PrimitiveType, native, SCALAR_RECORDS[type] ?? [], {
        timezone: 'UTC',
        now: new Date('2024-05-01T00:00:00Z'),
      });
      expect(checked).toBeGreaterThan(0);
    });

    const dateTypes = (['Date', 'Dateonly'] as const).filter((type) => sets[type]);
    if (dateTypes.length > 0) {
      describe.each(dateTypes)('%s columns', (type) => {
        it.each(SCENARIOS)('resolve date operators for a caller in %s', (_label, context) => {
          const native = new Set(sets[type] ?? []);
          const checked = checkEquivalence(type, native, dateRecords(context, type), context);
          expect(checked).toBeGreaterThan(10);
        });
      });
    }
  });

  it('advertises derivable operators (SQL String set adds Blank and the Contains family)', () => {
    const available = getEquivalentOperators(new Set(NATIVE_SETS.sql?.String), 'String');
    for (const operator of [
      'Blank',
      'Contains',
      'StartsWith',
      'EndsWith',
      'IContains',
      'IEndsWith',
    ] as const) {
      expect(available.has(operator)).toBe(true);
    }
    for (const operator of ['Match', 'LongerThan', 'ShorterThan'] as const) {
      expect(available.has(operator)).toBe(false);
    }
  });

  it('resolves Today in the caller zone (Paris, 2024-03-15T10:00Z)', () => {
    const context = { timezone: 'Europe/Paris', now: new Date('2024-03-15T10:00:00Z') };
    const native = new Set<Operator>(['LessThan', 'GreaterThan', 'GreaterThanOrEqual']);
    expect(
      rewriteLeaf(new ConditionTreeLeaf('at', 'Today'), native, 'Date', context)?.toPlainObject(),
    ).toEqual({
      aggregator: 'And',
      conditions: [
        { field: 'at', operator: 'GreaterThanOrEqual', value: '2024-03-14T23:00:00Z' },
        { field: 'at', operator: 'LessThan', value: '2024-03-15T23:00:00Z' },
      ],
    });
    expect(
      rewriteLeaf(
        new ConditionTreeLeaf('on', 'Today'),
        native,
        'Dateonly',
        context,
      )?.toPlainObject(),
    ).toEqual({
      aggregator: 'And',
      conditions: [
        { field: 'on', operator: 'GreaterThanOrEqual', value: '2024-03-15' },
        { field: 'on', operator: 'LessThan', value: '2024-03-16' },
      ],
    });
  });

  it('escapes LIKE wildcards found in Contains values', () => {
    const tree = rewriteLeaf(
      new ConditionTreeLeaf('name', 'Contains', '50%_off'),
      new Set(['Like']),
      'String',
      { timezone: 'UTC' },
    );
    expect(tree?.toPlainObject()).toEqual({
      field: 'name',
      operator: 'Like',
      value: '%50\\%\\_off%',
    });
  });

  it('leaves a leaf unchanged when no rewrite exists, and rewrites whole trees', () => {
    const leaf = new ConditionTreeLeaf('name', 'LongerThan', 3);
    expect(rewriteLeaf(leaf, new Set(['Equal']), 'String', { timezone: 'UTC' })).toBe(leaf);
    const tree = rewriteTree(
      new ConditionTreeLeaf('price', 'NotIn', []),
      () => ({ native: new Set<Operator>(['NotEqual']), columnType: 'Number' }),
      { timezone: 'UTC' },
    );
    expect(tree).toBeNull();
  });
});
