import { Transform } from 'node:stream';
import type { ExportLimits } from '../config';
import { ApiError } from '../errors';

export { DEFAULT_EXPORT_LIMITS, type ExportLimits } from '../config';

/** Counts running exports; {@link ExportSlots.acquire} refuses past the limits with a 429. */
export class ExportSlots {
  private running = 0;
  private readonly byHolder = new Map<string, number>();

  constructor(private readonly limits: ExportLimits) {}

  /** Takes a slot for `holder` (a token) and answers its release, or throws a 429. */
  acquire(holder: string): () => void {
    const held = this.byHolder.get(holder) ?? 0;
    if (held >= this.limits.maxPerToken) {
      throw tooMany(
        `This token already runs ${held} export(s), its limit; retry when it has finished.`,
      );
    }
    if (this.running >= this.limits.maxConcurrent) {
      throw tooMany(
        `The server already runs ${this.running} exports, its limit; retry in a few seconds.`,
      );
    }
    this.running += 1;
    this.byHolder.set(holder, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.byHolder.get(holder) ?? 1) - 1;
      if (left === 0) this.byHolder.delete(holder);
      else this.byHolder.set(holder, left);
    };
  }
}

function tooMany(message: string): ApiError {
  return new ApiError(429, 'rate_limited', message, { headers: { 'Retry-After': '5' } });
}

/**
 * A pass-through stage that calls `onStall` when no chunk went through for `idleMs`: placed just
 * before the response, it sees no chunk while the client does not read (backpressure).
 */
export function stallGuard(idleMs: number, onStall: () => void): Transform {
  const timer = setTimeout(onStall, idleMs);
  timer.unref();
  return new Transform({
    objectMode: false,
    transform(chunk, _encoding, callback) {
      timer.refresh();
      callback(null, chunk);
    },
    flush(callback) {
      clearTimeout(timer);
      callback();
    },
    destroy(error, callback) {
      clearTimeout(timer);
      callback(error);
    },
  });
}
