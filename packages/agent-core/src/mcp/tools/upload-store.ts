import { randomUUID } from 'node:crypto';

/** A file uploaded through `uploadActionFile`, kept until an action uses it or it expires. */
export interface UploadedFile {
  name: string;
  mimeType: string;
  content: Buffer;
}

interface Entry extends UploadedFile {
  owner: string;
  expiresAt: number;
}

/** Prefix of upload handles: `canopy-upload:<uuid>`. */
export const UPLOAD_HANDLE_PREFIX = 'canopy-upload:';

const HANDLE = /^canopy-upload:[0-9a-f-]{36}$/;

/** Whether a value is shaped like an upload handle. */
export function isUploadHandle(value: unknown): value is string {
  return typeof value === 'string' && HANDLE.test(value);
}

/**
 * The uploads of the MCP server, in memory: each belongs to the user (and rendering) who uploaded
 * it, lives `ttlMs` (15 minutes by default), and each owner keeps at most `perOwner` files (the
 * oldest dropped first), so memory stays bounded by `perOwner × maxUploadBytes` per user.
 */
export class UploadStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly perOwner = 10,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps a file for `owner`; returns its handle and expiry. */
  put(owner: string, file: UploadedFile): { handle: string; expiresAt: Date } {
    this.sweep();
    const mine = [...this.entries].filter(([, entry]) => entry.owner === owner);
    for (const [handle] of mine.slice(0, Math.max(0, mine.length - this.perOwner + 1))) {
      this.entries.delete(handle);
    }
    const handle = `${UPLOAD_HANDLE_PREFIX}${randomUUID()}`;
    const expiresAt = this.now() + this.ttlMs;
    this.entries.set(handle, { ...file, owner, expiresAt });
    return { handle, expiresAt: new Date(expiresAt) };
  }

  /** The file of a handle if `owner` uploaded it and it has not expired, else `undefined`. */
  get(owner: string, handle: string): UploadedFile | undefined {
    this.sweep();
    const entry = this.entries.get(handle);
    if (!entry || entry.owner !== owner) return undefined;
    return { name: entry.name, mimeType: entry.mimeType, content: entry.content };
  }

  /** Forgets every upload. */
  clear(): void {
    this.entries.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [handle, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(handle);
    }
  }
}
