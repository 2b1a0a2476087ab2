import {
  ApprovalNotAllowedError,
  CustomActionRequiresApprovalError,
  CustomActionTriggerForbiddenError,
  InvalidActionConditionError,
} from '../../operations/errors/action-errors';
import { NoPrimaryKeyError } from '../../operations/records/record-id';
import {
  BusinessError,
  type CanopyError,
  ForbiddenError,
  InvalidScopeError,
  NotFoundError,
  PreconditionFailedError,
  UnauthorizedError,
  UnprocessableError,
  ValidationError,
} from '../../toolkit/errors/canopy-error';
import {
  AlreadyDefinedFieldError,
  MissingCollectionError,
  MissingColumnError,
  MissingFieldError,
  MissingRelationError,
  RelationFieldAccessDeniedError,
  UnexpectedFieldTypeError,
} from '../../toolkit/errors/schema-errors';
import { toErrorEnvelope } from '../../http/errors/error-handler';
import { HTTP_STATUS_BY_CODE, classifyError } from './error-status';

// Every error agent-core throws, with its code and what the agent answers for it
// (agent-http-protocol §14.2, §14.3): the wire must not move when the classes do.
const PINNED: [CanopyError, string, number, string][] = [
  [new ValidationError('bad'), 'VALIDATION_ERROR', 400, 'ValidationError'],
  [new MissingCollectionError('x', ['a']), 'MISSING_COLLECTION', 400, 'MissingCollectionError'],
  [new MissingFieldError('c', 'f', ['a']), 'MISSING_FIELD', 400, 'MissingFieldError'],
  [new MissingColumnError('c', 'f', ['a']), 'MISSING_COLUMN', 400, 'MissingColumnError'],
  [new MissingRelationError('c', 'f', ['a']), 'MISSING_RELATION', 400, 'MissingRelationError'],
  [new AlreadyDefinedFieldError('c', 'f'), 'ALREADY_DEFINED', 400, 'AlreadyDefinedFieldError'],
  [
    new RelationFieldAccessDeniedError('c', 'r:f'),
    'RELATION_FIELD_ACCESS_DENIED',
    400,
    'RelationFieldAccessDeniedError',
  ],
  [
    new UnexpectedFieldTypeError('c', 'f', 'OneToMany', ['Column']),
    'UNEXPECTED_FIELD_TYPE',
    400,
    'UnexpectedFieldTypeError',
  ],
  [new UnauthorizedError(), 'UNAUTHORIZED', 401, 'UnauthorizedError'],
  [new ForbiddenError(), 'FORBIDDEN', 403, 'ForbiddenError'],
  [
    new CustomActionTriggerForbiddenError(),
    'ACTION_TRIGGER_FORBIDDEN',
    403,
    'CustomActionTriggerForbiddenError',
  ],
  [
    new CustomActionRequiresApprovalError([1]),
    'ACTION_REQUIRES_APPROVAL',
    403,
    'CustomActionRequiresApprovalError',
  ],
  [new ApprovalNotAllowedError([1]), 'APPROVAL_NOT_ALLOWED', 403, 'ApprovalNotAllowedError'],
  [new NotFoundError(), 'NOT_FOUND', 404, 'NotFoundError'],
  [new UnprocessableError('no'), 'UNPROCESSABLE', 422, 'UnprocessableError'],
  [new InvalidScopeError('c', 'why'), 'INVALID_SCOPE', 422, 'InvalidScopeError'],
  [
    new InvalidActionConditionError(new Error('x')),
    'INVALID_ACTION_CONDITION',
    422,
    'InvalidActionConditionError',
  ],
  [new NoPrimaryKeyError('c'), 'NO_PRIMARY_KEY', 422, 'NoPrimaryKeyError'],
  [new BusinessError('no'), 'BUSINESS_ERROR', 422, 'BusinessError'],
  [
    new PreconditionFailedError('changed', {}),
    'PRECONDITION_FAILED',
    412,
    'PreconditionFailedError',
  ],
];

describe('the error table', () => {
  it.each(PINNED)('answers %p (code %s) with %d and the name %s', (error, code, status, name) => {
    expect(error.code).toBe(code);
    expect(HTTP_STATUS_BY_CODE[code as keyof typeof HTTP_STATUS_BY_CODE]).toBe(status);
    expect(toErrorEnvelope(error).errors[0]).toMatchObject({
      name,
      detail: error.message,
      status,
    });
  });

  it('has one row per code agent-core throws, each pinned above', () => {
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual(
      [...new Set(PINNED.map(([, code]) => code))].sort(),
    );
  });

  it('keeps the default details of §14.3', () => {
    expect(new UnauthorizedError().message).toBe('Authentication Error');
    expect(new ForbiddenError().message).toBe('Forbidden');
    expect(new NotFoundError().message).toBe('Record does not exists');
  });

  it("gives a customer's own code the status of its family", () => {
    class OutOfStockError extends BusinessError {}
    const denied = new ForbiddenError('Not your shop', { code: 'SHOP_FORBIDDEN' });
    expect(classifyError(new OutOfStockError('sold out'))).toEqual({ status: 422, exposed: true });
    expect(classifyError(denied)).toEqual({ status: 403, exposed: true });
    expect(toErrorEnvelope(new OutOfStockError('sold out')).errors[0].name).toBe('OutOfStockError');
  });

  it('maps an error of another copy or of customer code by its name', () => {
    const foreign = Object.assign(new Error('gone'), { name: 'NotFoundError' });
    expect(classifyError(foreign)).toEqual({ status: 404, exposed: true });
    const odd = Object.assign(new Error('odd'), { name: 'constructor' });
    expect(classifyError(odd)).toEqual({ status: 500, exposed: false });
  });

  it('carries the data of a refusal in the body', () => {
    expect(toErrorEnvelope(new CustomActionRequiresApprovalError([3, 4])).errors[0]).toEqual({
      name: 'CustomActionRequiresApprovalError',
      detail: 'This action requires to be approved.',
      status: 403,
      data: { roleIdsAllowedToApprove: [3, 4] },
    });
  });
});

describe('classifyError', () => {
  it('maps the URIError express throws for an undecodable path segment to an exposed 400', () => {
    const error = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), {
      status: 400,
      statusCode: 400,
    });
    expect(classifyError(error)).toEqual({ status: 400, exposed: true });
  });

  it('keeps other URIErrors (thrown by code, without a status) unexposed 500s', () => {
    expect(classifyError(new URIError('URI malformed'))).toEqual({ status: 500, exposed: false });
  });

  it('does not trust a 4xx status on an error without a code', () => {
    const error = Object.assign(new Error('boom'), { status: 404 });
    expect(classifyError(error)).toEqual({ status: 500, exposed: false });
  });
});
