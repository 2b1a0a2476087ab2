import { CustomActionTriggerForbiddenError } from '../operations/errors/action-errors';
import { NotFoundError, ValidationError } from '../toolkit/errors/canopy-error';
import { refusalText, toolRefusal } from './tool-refusal';

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
