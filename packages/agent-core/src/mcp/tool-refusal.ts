import { classifyError } from '../protocol/errors/error-status';
import { isCanopyError } from '../toolkit/errors/canopy-error';

/**
 * The one mapping of an agent refusal to the text of an MCP tool error: `<detail> (HTTP <status>)`,
 * worded and numbered as the REST interface answers it (platform-protocol §16.5), with an
 * optional hint for the model after it.
 */
export function refusalText(detail: string, status: number, hint = ''): string {
  return `${detail} (HTTP ${status})${hint ? ` ${hint}` : ''}`;
}

/**
 * The tool error text of a refusal an operation threw (a Canopy error: its message and the status
 * of the one error table, `protocol/errors/error-status.ts`); `null` for anything else, which is an
 * unexpected failure.
 */
export function toolRefusal(error: unknown): string | null {
  if (!isCanopyError(error)) return null;
  return refusalText(error.message, classifyError(error).status);
}
