import type { Logger } from '../toolkit/interfaces/logger';
import type { SessionRevocations } from './agent-services';
import type { PlatformHttpClient } from './platform-http-client';

/** The platform's event of a sign-out, and where an agent reads back the recent ones. */
export const REVOCATION_EVENT = 'revoke-agent-sessions';
const PATH = '/liana/v1/agent-session-revocations';
/** How long a sign-out is remembered: a day, as on the platform, far longer than a session token lives. */
const KEEP_SECONDS = 86_400;

interface Revocation {
  userId: number;
  before: number;
}

function isRevocation(value: unknown): value is Revocation {
  const candidate = value as Partial<Revocation> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Number.isInteger(candidate.userId) &&
    typeof candidate.before === 'number' &&
    Number.isFinite(candidate.before)
  );
}

/**
 * The sign-outs the agent honours: when a user signs out of the Console, the platform publishes a
 * `revoke-agent-sessions` event `{"userId": 42, "before": <seconds>}` to the agents of the user's
 * projects, and from then on their session tokens issued at or before `before` are refused.
 * Every replica hears the event on its own stream; one that starts, or whose stream reopened
 * (events may have been missed), reads the recent sign-outs back from the platform. An entry is
 * forgotten once every token it refuses has expired.
 */
export class PlatformSessionRevocations implements SessionRevocations {
  private readonly before = new Map<number, number>();

  constructor(
    private readonly http: PlatformHttpClient,
    private readonly logger: Logger,
  ) {}

  isRevoked(userId: number, issuedAt: number): boolean {
    const before = this.before.get(userId);
    return before !== undefined && issuedAt <= before;
  }

  /** Reacts to a platform event; only `revoke-agent-sessions` concerns it. */
  handleEvent(name: string, data: string): void {
    if (name !== REVOCATION_EVENT) return;
    let revocation: unknown;
    try {
      revocation = JSON.parse(data);
    } catch {
      revocation = undefined;
    }
    if (!isRevocation(revocation)) {
      this.logger(
        'Warn',
        `Ignoring a ${REVOCATION_EVENT} event without userId and before: ${data}`,
      );
      return;
    }
    this.record(revocation);
  }

  /**
   * Reads the recent sign-outs from the platform (`GET /liana/v1/agent-session-revocations`).
   * Never rejects: a failure is logged, and the sign-outs already known still apply.
   */
  async load(): Promise<void> {
    try {
      const { body } = await this.http.request<{ revocations?: unknown }>(PATH, { retries: 0 });
      const list = Array.isArray(body?.revocations) ? body.revocations : [];
      for (const revocation of list) if (isRevocation(revocation)) this.record(revocation);
    } catch (error) {
      this.logger(
        'Warn',
        `Could not read the recent sign-outs from the platform (${this.http.url(PATH)}): ${(error as Error).message}. Sign-outs announced from now on still apply.`,
      );
    }
  }

  private record({ userId, before }: Revocation): void {
    this.before.set(userId, Math.max(before, this.before.get(userId) ?? before));
    // Every token an old entry refuses has expired: it has nothing left to do.
    const expired = Date.now() / 1000 - KEEP_SECONDS;
    for (const [user, time] of this.before) if (time < expired) this.before.delete(user);
  }
}
