import { encodeValidations } from './validation-encoding';

describe('encodeValidations', () => {
  it('encodes the rules the front end understands, with messages', () => {
    expect(
      encodeValidations([
        { operator: 'Present' },
        { operator: 'LongerThan', value: 2 },
        { operator: 'ShorterThan', value: 10 },
        { operator: 'Contains', value: '@' },
        { operator: 'Like', value: 'a%_b.' },
        { operator: 'Before', value: '2030-01-01' },
      ]),
    ).toEqual([
      { message: 'Field is required', type: 'is present' },
      { message: 'Value must be longer than 2 characters', type: 'is longer than', value: 2 },
      { message: 'Value must be shorter than 10 characters', type: 'is shorter than', value: 10 },
      { message: "Value must contain '@'", type: 'contains', value: '@' },
      { message: 'Value must match ^a.*.b\\.$', type: 'is like', value: '^a.*.b\\.$' },
      { message: 'Value must be before 2030-01-01', type: 'is before', value: '2030-01-01' },
    ]);
  });

  it('drops rules without a front-end form and merges duplicates to the tightest bound', () => {
    expect(
      encodeValidations([
        { operator: 'Today' },
        { operator: 'NotEqual', value: 3 },
        { operator: 'GreaterThan', value: 1 },
        { operator: 'GreaterThan', value: 5 },
        { operator: 'LessThan', value: 100 },
        { operator: 'LessThan', value: 50 },
        { operator: 'After', value: '2020-01-01' },
        { operator: 'After', value: '2024-06-01' },
      ]),
    ).toEqual([
      { message: 'Value must be greater than 5', type: 'is greater than', value: 5 },
      { message: 'Value must be lower than 50', type: 'is less than', value: 50 },
      { message: 'Value must be after 2024-06-01', type: 'is after', value: '2024-06-01' },
    ]);
  });

  it('combines two patterns into one', () => {
    const [rule] = encodeValidations([
      { operator: 'Match', value: /^[a-z]+$/ },
      { operator: 'Match', value: 'x' },
    ]);
    expect(rule?.value).toBe('^(?=[\\s\\S]*?(?:^[a-z]+$))(?=[\\s\\S]*?(?:x))[\\s\\S]*$');
    expect(new RegExp(rule?.value as string).test('abxc')).toBe(true);
    expect(new RegExp(rule?.value as string).test('abc')).toBe(false);
  });
});
