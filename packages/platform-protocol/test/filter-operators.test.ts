import {
  FILTER_OPERATOR_VALUES,
  FILTER_OPERATORS_BY_TYPE,
  fieldTypeName,
  filterOperatorsForType,
  snakeCaseOperator,
} from '../src';

describe('filter operators', () => {
  it('writes the agent operators in snake_case and keeps snake_case ones', () => {
    expect(
      ['In', 'NotIContains', 'PreviousXDaysToDate', 'BeforeXHoursAgo', 'not_in'].map(
        snakeCaseOperator,
      ),
    ).toEqual(['in', 'not_i_contains', 'previous_x_days_to_date', 'before_x_hours_ago', 'not_in']);
  });

  it('knows the value of every operator a type allows', () => {
    for (const operators of Object.values(FILTER_OPERATORS_BY_TYPE)) {
      for (const operator of operators) expect(FILTER_OPERATOR_VALUES[operator]).toBeDefined();
    }
  });

  it('reads field types as the schema upload writes them', () => {
    expect(fieldTypeName('Timeonly')).toBe('Time');
    expect(fieldTypeName(['String'])).toBe('Array');
    expect(fieldTypeName({ fields: [] })).toBe('Object');
    expect(filterOperatorsForType(['Enum'])).toContain('includes_all');
    expect(filterOperatorsForType('Boolean')).not.toContain('contains');
    // Composite and unknown types: equality and presence only.
    expect(filterOperatorsForType({ fields: [] })).toEqual([
      'equal',
      'not_equal',
      'present',
      'blank',
      'missing',
    ]);
  });
});
