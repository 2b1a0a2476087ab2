import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ApiError, invalidParameter } from '../errors';
import type { ServerContext } from '../context';

const KEPT_HEADERS = ['etag', 'location'];

/**
 * `Idempotency-Key` on creates: the first request with a key runs and its 2xx response is stored
 * (per token, 24 hours); a retry with the same key and the same request gets the stored response
 * again (`Idempotent-Replayed: true`) without a second write; the same key with another request is
 * a 422; a retry while the first is still running is a 409 (a claim without a response for five
 * minutes is considered abandoned). Failed requests release their key.
 */
export function idempotency(ctx: ServerContext): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    const tokenId = req.platformAuth?.tokenId;
    if (key === undefined || tokenId === undefined) {
      next();
      return;
    }
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw invalidParameter('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    }
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.path}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const where = { token_id: tokenId, key };
    // Expired keys, and claims left without a response by a process that died mid-request.
    await ctx
      .knex('idempotency_keys')
      .where(where)
      .andWhere((q) =>
        q
          .whereRaw("created_at < now() - interval '24 hours'")
          .orWhere((inner) =>
            inner
              .whereNull('response_status')
              .andWhereRaw("created_at < now() - interval '5 minutes'"),
          ),
      )
      .delete();
    const claimed = await ctx
      .knex('idempotency_keys')
      .insert({ ...where, request_fingerprint: fingerprint })
      .onConflict(['token_id', 'key'])
      .ignore()
      .returning('key');
    if (claimed.length === 0) {
      const existing = await ctx.knex('idempotency_keys').where(where).first();
      if (!existing || existing.request_fingerprint !== fingerprint) {
        throw new ApiError(
          422,
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request; use a new key.',
        );
      }
      if (existing.response_status === null) {
        throw new ApiError(
          409,
          'conflict',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
          { headers: { 'Retry-After': '1' } },
        );
      }
      res
        .set(existing.response_headers ?? {})
        .set('Idempotent-Replayed', 'true')
        .status(existing.response_status)
        .json(existing.response_body);
      return;
    }
    captureResponse(res, async (status, body) => {
      if (status >= 200 && status < 300) {
        const headers = Object.fromEntries(
          KEPT_HEADERS.flatMap((name) => {
            const value = res.get(name);
            return value === undefined ? [] : [[name, value]];
          }),
        );
        await ctx
          .knex('idempotency_keys')
          .where(where)
          .update({
            response_status: status,
            response_body: JSON.stringify(body),
            response_headers: JSON.stringify(headers),
          });
      } else {
        await ctx.knex('idempotency_keys').where(where).delete();
      }
    });
    next();
  };
}

/** Runs `persist` before the JSON response leaves, so a retry never sees a half-stored key. */
function captureResponse(
  res: Response,
  persist: (status: number, body: unknown) => Promise<void>,
): void {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    persist(res.statusCode, body).then(
      () => send(body),
      (error: unknown) => {
        res.req.log?.error({ err: error }, 'could not store the idempotent response');
        send(body);
      },
    );
    return res;
  };
}
