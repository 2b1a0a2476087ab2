import { ForbiddenError, UnprocessableError } from '../../toolkit/errors/canopy-error';

/** The caller's role may not trigger the action, or its trigger condition fails (§9.7). */
export class CustomActionTriggerForbiddenError extends ForbiddenError {
  constructor() {
    super("You don't have permission to trigger this action.", {
      code: 'ACTION_TRIGGER_FORBIDDEN',
    });
  }
}

/** The action needs an approval first; `data.roleIdsAllowedToApprove` says who may give it. */
export class CustomActionRequiresApprovalError extends ForbiddenError {
  constructor(roleIdsAllowedToApprove: number[]) {
    super('This action requires to be approved.', {
      code: 'ACTION_REQUIRES_APPROVAL',
      data: { roleIdsAllowedToApprove },
    });
  }
}

/** The caller may not approve this action request. */
export class ApprovalNotAllowedError extends ForbiddenError {
  constructor(roleIdsAllowedToApprove: number[]) {
    super("You don't have permission to approve this action.", {
      code: 'APPROVAL_NOT_ALLOWED',
      data: { roleIdsAllowedToApprove },
    });
  }
}

/** A platform condition of the action cannot be evaluated on this collection. */
export class InvalidActionConditionError extends UnprocessableError {
  constructor(cause: unknown) {
    super(
      'The conditions to trigger this action cannot be verified. Please contact an administrator.',
      { code: 'INVALID_ACTION_CONDITION', cause },
    );
  }
}
