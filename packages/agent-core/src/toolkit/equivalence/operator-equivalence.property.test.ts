import fc from 'fast-check';
import { compileLeaf } from '../evaluator/match-leaf';
import { compileTree } from '../evaluator/match-record';
import { ConditionTreeLeaf } from '../query/condition-tree/condition-tree-leaf';
import { OPERATORS_BY_TYPE, type Operator } from '../query/operators';
import { getEquivalentOperators, rewriteLeaf } from './operator-equivalence';

const STRING_OPERATORS = [...OPERATORS_BY_TYPE.String];
/** The operators rewrites are built from: native sets are drawn among them. */
const BUILDING_BLOCKS: Operator[] = [
  'Equal',
  'NotEqual',
  'In',
  'NotIn',
  'Missing',
  'Like',
  'ILike',
  'Match',
  'LessThan',
  'GreaterThan',
];
const context = { timezone: 'UTC', now: new Date('2024-05-01T00:00:00Z') };

describe('operator equivalences (property)', () => {
  it('for any native subset of string operators, rewritten leaves match the same strings', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.subarray(BUILDING_BLOCKS, { minLength: 1 }),
        fc.constantFrom<Operator>(...STRING_OPERATORS),
        fc.stringMatching(/^[ab%_\\]{0,3}$/),
        fc.array(fc.option(fc.stringMatching(/^[abAB%_\\]{0,4}$/), { nil: null }), {
          maxLength: 12,
        }),
        (nativeList, operator, text, values) => {
          const native = new Set(nativeList);
          if (native.has(operator) || !getEquivalentOperators(native, 'String').has(operator))
            return;
          const value = ['In', 'NotIn', 'IncludesAll', 'IncludesNone'].includes(operator)
            ? [text]
            : ['LongerThan', 'ShorterThan'].includes(operator)
              ? text.length
              : ['Present', 'Blank', 'Missing'].includes(operator)
                ? undefined
                : text;
          checked += 1;
          const rewritten = rewriteLeaf(
            new ConditionTreeLeaf('f', operator, value),
            native,
            'String',
            context,
          );
          rewritten?.forEachLeaf((leaf) => expect(native.has(leaf.operator)).toBe(true));
          const direct = compileLeaf(operator, value, 'String', context);
          const viaRewrite = compileTree(rewritten, () => 'String', context);
          for (const candidate of values) {
            expect([operator, value, candidate, viaRewrite({ f: candidate })]).toEqual([
              operator,
              value,
              candidate,
              direct(candidate),
            ]);
          }
        },
      ),
      // A fixed seed keeps runs reproducible; about a quarter of the cases exercise a rewrite.
      { numRuns: 1000, seed: 20240331 },
    );
    expect(checked).toBeGreaterThan(150);
  });
});
