import { describe, expect, it } from 'vitest';
import { maxLength, valueProblem } from './field-rules';

const shortText = { type: 'String', validations: [{ type: 'is shorter than', value: 51 }] };

describe('valueProblem', () => {
  it('refuses text over the length the agent sends, naming the limit', () => {
    expect(maxLength(shortText)).toBe(50);
    expect(valueProblem(shortText, 'First name', 'x'.repeat(300))).toBe(
      'First name takes at most 50 characters; you entered 300.',
    );
    expect(valueProblem(shortText, 'First name', 'x'.repeat(50))).toBeUndefined();
    // Characters, not UTF-16 units, as the database counts them.
    expect(valueProblem(shortText, 'First name', '😀'.repeat(50))).toBeUndefined();
  });

  it('checks numeric ranges, rules and enum values', () => {
    const latitude = {
      type: 'Number',
      validations: [
        { type: 'is greater than', value: -90 },
        { type: 'is less than', value: 90 },
      ],
    };
    expect(valueProblem(latitude, 'Latitude', 999)).toBe('Latitude must be less than 90.');
    expect(valueProblem(latitude, 'Latitude', -90)).toBe('Latitude must be greater than -90.');
    expect(valueProblem(latitude, 'Latitude', 45.7)).toBeUndefined();
    expect(valueProblem({ type: 'Number', min: 0, max: 100 }, 'Discount', 150)).toBe(
      'Discount must be at most 100.',
    );
    expect(
      valueProblem(
        { type: 'String', validations: [{ type: 'contains', value: '@' }] },
        'Email',
        'ann.example.com',
      ),
    ).toBe('Email must contain “@”.');
    expect(valueProblem({ type: 'Enum', enums: ['paid', 'refunded'] }, 'Status', 'lost')).toBe(
      'Status must be one of: paid, refunded.',
    );
  });

  it('leaves an empty value to the required check, unless a rule says it is required', () => {
    expect(valueProblem(shortText, 'First name', '')).toBeUndefined();
    expect(
      valueProblem({ type: 'String', validations: [{ type: 'is present' }] }, 'Email', null),
    ).toBe('Email is required.');
  });
});
