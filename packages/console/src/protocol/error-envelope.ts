/**
 * The one reader of an error answer's body, for the agent and the platform alike. The servers
 * answer errors in three envelopes: JSON:API `{"errors": [{"detail", "name", "data"?,
 * "meta": {"reference"}?}]}` (the agent, the platform's agent-facing and approvals routes:
 * docs/platform-protocol.md §1), `{"code" | "error", "message", "reference"?}` (the public and
 * management API: docs/public-api.md §5) and OAuth's `{"error", "error_description"}`. A body
 * that is not JSON (a proxy's page, a plain-text 413) is the message itself.
 */
import type { PlatformErrorBody } from '@canopy/platform-protocol';

export interface ErrorEnvelope {
  /** What the server said, or `fallback` when it said nothing readable. */
  message: string;
  /** The machine-readable code (`invalid_body`, `unauthorized`…), when the envelope has one. */
  code?: string;
  /** The JSON:API error's `name` (`ValidationError`, `ForbiddenError`…). */
  name?: string;
  /** The JSON:API error's `data` (an action's refusal details). */
  data?: unknown;
  /** An internal error's reference, which the server logged the error under. */
  reference?: string;
}

type JsonApiErrors = {
  errors?: {
    detail?: unknown;
    name?: unknown;
    code?: unknown;
    data?: unknown;
    meta?: { reference?: unknown };
  }[];
};
type OAuthError = { error?: unknown; error_description?: unknown };

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Reads an error answer's body (`raw`, as received). `fallback` is the message when the body
 * says nothing readable (empty, or JSON without a message).
 */
export function parseErrorEnvelope(raw: string, fallback: string): ErrorEnvelope {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { message: raw.trim() || fallback };
  }
  if (typeof body !== 'object' || body === null) return { message: raw.trim() || fallback };
  const first = (body as JsonApiErrors).errors?.[0];
  if (first && typeof first === 'object') {
    return withoutUndefined({
      message: text(first.detail) ?? fallback,
      name: text(first.name),
      code: text(first.code),
      data: first.data,
      reference: text(first.meta?.reference),
    });
  }
  const flat = body as Partial<PlatformErrorBody> & OAuthError;
  return withoutUndefined({
    message: text(flat.message) ?? text(flat.error_description) ?? fallback,
    code: text(flat.code) ?? text(flat.error),
    reference: text(flat.reference),
  });
}

function withoutUndefined(envelope: ErrorEnvelope): ErrorEnvelope {
  return Object.fromEntries(
    Object.entries(envelope).filter(([, value]) => value !== undefined),
  ) as unknown as ErrorEnvelope;
}
