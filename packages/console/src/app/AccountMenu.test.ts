import { describe, expect, it } from 'vitest';
import { newPasswordProblem } from './AccountMenu';

describe('newPasswordProblem', () => {
  it('asks for the platform length and the same password twice', () => {
    expect(newPasswordProblem('short', 'short')).toBe('At least 12 characters.');
    expect(newPasswordProblem('x'.repeat(201), 'x'.repeat(201))).toBe('At most 200 characters.');
    expect(newPasswordProblem('long enough password', 'long enough passw0rd')).toBe(
      'The two passwords differ.',
    );
    expect(newPasswordProblem('long enough password', 'long enough password')).toBe(undefined);
  });
});
