export { ApiError, isApiError, type ApiErrorCode, type ApiErrorOptions } from './api-error';
export {
  invalidParameter,
  invalidBody,
  unauthorized,
  forbidden,
  projectNotAccessible,
} from './factories';
export {
  errorHandler,
  logServerError,
  newErrorReference,
  notFoundHandler,
  toApiError,
  toErrorResponse,
  type ErrorBody,
} from './error-handler';
