import { describe, expect, it } from 'vitest';
import { AgentError } from './client';
import { errorText } from './error-text';

describe('errorText', () => {
  it('says a failed validation rule in words, on the field, keeping the wire text', () => {
    const wire = `'email' failed validation rule: 'Contains("@")'`;
    expect(errorText(new AgentError(400, wire, 'ValidationError'))).toEqual({
      field: 'email',
      message: 'Email must contain “@”.',
      technical: wire,
    });
    expect(errorText(`'first_name' failed validation rule: 'Present'`).message).toBe(
      'First name is required.',
    );
    expect(errorText(`'discount' failed validation rule: 'LessThan(100)'`).message).toBe(
      'Discount must be less than 100.',
    );
  });

  it('uses the label the form gives a field', () => {
    const text = errorText(`'email' failed validation rule: 'Contains("@")'`, {
      label: (name) => (name === 'email' ? 'Work e-mail' : name),
    });
    expect(text.message).toBe('Work e-mail must contain “@”.');
  });

  it('names the length limit of a text column', () => {
    const text = errorText(
      '"customers.first_name" takes at most 100 characters; the value given has 300.',
    );
    expect(text.field).toBe('first_name');
    expect(text.message).toBe(
      'First name takes at most 100 characters; you entered 300. Shorten it and try again.',
    );
  });

  it('says an id out of range is too large, inside a filter error as well', () => {
    const wire =
      'Invalid filters (The given value is out of range for "orders.id": 1e+23. Expects an integer from -2147483648 to 2147483647.)';
    const text = errorText(new AgentError(400, wire));
    expect(text.message).toBe(
      'The filter could not be applied. That id is too large: it must be a whole number from -2147483648 to 2147483647.',
    );
    expect(text.technical).toBe(wire);
    expect(errorText('Invalid filters (something new)').message).toMatch(
      /^The filter could not be applied: .* Change or remove the filter\.$/,
    );
  });

  it('says a missing record may have been deleted', () => {
    expect(errorText(new AgentError(404, "Record does not exists ('orders' 42)")).message).toBe(
      'Order #42 no longer exists — it may have been deleted. Go back to the list to find it again.',
    );
    expect(errorText('Record does not exists', { collection: 'categories' }).message).toBe(
      'This category no longer exists — it may have been deleted. Go back to the list to find it again.',
    );
  });

  it('names enum values and types', () => {
    expect(
      errorText(
        'The given enum value(s) "lost" is not listed in [paid, refunded] for "orders.status".',
      ).message,
    ).toBe('Status must be one of: paid, refunded.');
    expect(
      errorText('The given value has a wrong type for "orders.total": "abc". Expects Number.')
        .message,
    ).toBe('Total must be a number.');
  });

  it("gives an internal error's reference, never a pointer to server logs", () => {
    const agent = errorText(
      new AgentError(500, 'Unexpected error', 'Error', undefined, '3fa91c07'),
    );
    expect(agent).toMatchObject({ reference: '3fa91c07', technical: 'Unexpected error' });
    expect(agent.message).toContain('3fa91c07');
    const platform = errorText(
      new Error(
        'Something went wrong on the server (reference 0badc0de). Try again; if it keeps happening, give this reference to your administrator.',
      ),
    );
    expect(platform.reference).toBe('0badc0de');
    const old = errorText('Internal error; see the server logs.');
    expect(old.message).not.toMatch(/log/);
    expect(old.message).toMatch(/^Something went wrong/);
  });

  it('keeps a message it does not know, as a sentence, without details', () => {
    expect(errorText(new AgentError(422, 'The order is already shipped'))).toEqual({
      message: 'The order is already shipped.',
      technical: 'The order is already shipped',
    });
    expect(errorText('Already a sentence.')).toEqual({ message: 'Already a sentence.' });
  });
});
