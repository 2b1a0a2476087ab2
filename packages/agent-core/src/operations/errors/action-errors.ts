import { HttpError } from './http-errors';

/** The caller's role may not trigger the action, or its trigger condition fails (§9.7). */
export class CustomActionTriggerForbiddenError extends HttpError {
  constructor() {
    super(403, 'ACTION_TRIGGER_FORBIDDEN', "You don't have permission to trigger this action.");
  }
}

/** The action needs an approval first; `data.roleIdsAllowedToApprove` says who may give it. */
export class CustomActionRequiresApprovalError extends HttpError {
  constructor(roleIdsAllowedToApprove: number[]) {
    super(403, 'ACTION_REQUIRES_APPROVAL', 'This action requires to be approved.', {
      data: { roleIdsAllowedToApprove },
    });
  }
}

/** The caller may not approve this action request. */
export class ApprovalNotAllowedError extends HttpError {
  constructor(roleIdsAllowedToApprove: number[]) {
    super(403, 'APPROVAL_NOT_ALLOWED', "You don't have permission to approve this action.", {
      data: { roleIdsAllowedToApprove },
    });
  }
}

/** A platform condition of the action cannot be evaluated on this collection (422). */
export class InvalidActionConditionError extends HttpError {
  constructor(cause: unknown) {
    super(
      422,
      'INVALID_ACTION_CONDITION',
      'The conditions to trigger this action cannot be verified. Please contact an administrator.',
      { cause },
    );
  }
}
