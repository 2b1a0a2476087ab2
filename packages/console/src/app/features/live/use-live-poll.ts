import { useSyncExternalStore } from 'react';
import { fallbackInterval, liveStatus, onLiveStatus } from './live-events';
import type { LiveStatus } from './live-client';

/** The live stream's status (module-wide: usable outside the live provider). */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(onLiveStatus, liveStatus);
}

/**
 * A query's `refetchInterval` that polls every `ms` only while the live stream cannot connect
 * (the fallback); while it is up, its events make the query stale instead.
 */
export function useLivePoll(ms: number): number | false {
  return fallbackInterval(useLiveStatus(), ms);
}
