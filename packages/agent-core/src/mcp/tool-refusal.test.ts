import { CustomActionTriggerForbiddenError } from '../operations/errors/action-errors';
import { NotFoundError, ValidationError } from '../toolkit/errors/canopy-error';
import {
  UnexpectedOperationFailure,
  operationFailure,
  refusalText,
  toolRefusal,
} from './tool-refusal';

describe('toolRefusal', () => {
  it('words a refusal an operation threw as the REST interface answers it', () => {
    expect(toolRefusal(new NotFoundError())).toBe('Record does not exists (HTTP 404)');
    expect(toolRefusal(new ValidationError('Bad page'))).toBe('Bad page (HTTP 400)');
    expect(toolRefusal(new CustomActionTriggerForbiddenError())).toBe(
      "You don't have permission to trigger this action. (HTTP 403)",
    );
  });

  it('leaves anything else to the unexpected-failure path', () => {
    expect(toolRefusal(new Error('boom'))).toBeNull();
    expect(toolRefusal('boom')).toBeNull();
  });

  it('adds a hint after the status', () => {
    expect(refusalText('Forbidden', 403, 'Ask an admin.')).toBe(
      'Forbidden (HTTP 403) Ask an admin.',
    );
  });
});

describe('operationFailure', () => {
  it('keeps a refusal as the operation threw it', () => {
    const refusal = new ValidationError('Bad page');
    expect(operationFailure(refusal)).toBe(refusal);
  });

  it('words any other failure as the REST interface hides it, without its message', () => {
    const failure = operationFailure(new Error('connect ECONNREFUSED db:5432'));
    expect(failure).toBeInstanceOf(UnexpectedOperationFailure);
    expect(toolRefusal(failure)).toBe('Unexpected error (HTTP 500)');
  });

  it('adds the hint a tool computes from the detail', () => {
    expect(toolRefusal(new ValidationError('Invalid sort: -x'), (detail) => `[${detail}]`)).toBe(
      'Invalid sort: -x (HTTP 400) [Invalid sort: -x]',
    );
  });
});
