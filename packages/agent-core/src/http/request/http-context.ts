import { createOperationContext, type OperationContext } from '../../operations/context';

/** What every route handler shares: the operations' context (services, permissions, collections). */
export type HttpContext = OperationContext;

/** Builds the shared context of one router. */
export const createHttpContext = createOperationContext;
