import { classifyError } from '../protocol/errors/error-status';

/**
 * The one mapping of an agent refusal to the text of an MCP tool error: `<detail> (HTTP <status>)`,
 * worded and numbered as the REST interface answers it (platform-protocol §16.5), with an
 * optional hint for the model after it.
 */
export function refusalText(detail: string, status: number, hint = ''): string {
  return `${detail} (HTTP ${status})${hint ? ` ${hint}` : ''}`;
}

/**
 * A failure of an operation that is no refusal (a bug, a data source that fails): the model
 * hears what the REST interface answers for it, `Unexpected error (HTTP 500)`, not its message.
 */
export class UnexpectedOperationFailure extends Error {
  constructor(cause: unknown) {
    super('Unexpected error', { cause });
    this.name = 'UnexpectedOperationFailure';
  }
}

/**
 * What the MCP tools throw for a failed operation: a refusal (a Canopy error, or any error the
 * error table shows to users) as it is, anything else as an {@link UnexpectedOperationFailure}.
 */
export function operationFailure(error: unknown): unknown {
  return classifyError(error).exposed ? error : new UnexpectedOperationFailure(error);
}

/**
 * The tool error text of a refusal an operation threw (its message and the status of the one
 * error table, `protocol/errors/error-status.ts`; `hint` gets the message and adds a hint for the
 * model); `null` for anything else, which is an unexpected failure of the tool itself.
 */
export function toolRefusal(error: unknown, hint?: (detail: string) => string): string | null {
  if (error instanceof UnexpectedOperationFailure) {
    return refusalText(error.message, classifyError(error.cause).status);
  }
  const { status, exposed } = classifyError(error);
  if (!exposed) return null;
  const message = (error as { message?: unknown }).message;
  const detail = typeof message === 'string' && message ? message : 'Unexpected error';
  return refusalText(detail, status, hint ? hint(detail) : '');
}
