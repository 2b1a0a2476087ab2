/**
 * Tells the platform the user has a record open (`PUT …/presence`, a heartbeat every 20 s,
 * docs/public-api.md §8) while the page is mounted, and who else has it open, from the live
 * stream's `presence` events.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { platformFetch, usePlatformPaths } from '../../platform-calls';
import { useLive } from './LiveProvider';
import { useLiveStatus } from './use-live-poll';

/** Under the platform's 30 s expiry, with room for a slow answer. */
const HEARTBEAT_MS = 20_000;

/** The record this tab says it has open: a page leaving one for another does not clear it. */
let announced: string | undefined;

export function usePresence(collection: string, recordId: string): readonly number[] {
  const live = useLive();
  const paths = usePlatformPaths();
  const status = useLiveStatus();
  const key = `${collection}/${recordId}`;

  useEffect(() => {
    if (status !== 'open') return;
    announced = key;
    const beat = () => {
      const streamId = live.streamId();
      platformFetch(`${paths.environment}/presence`, {
        method: 'PUT',
        json: { collection, recordId, ...(streamId ? { streamId } : {}) },
      }).catch(() => {
        // Best effort: presence only shows who else looks; the page works without it.
      });
    };
    beat();
    const timer = setInterval(beat, HEARTBEAT_MS);
    return () => {
      clearInterval(timer);
      if (announced === key) announced = undefined;
      // Left for another record: that page's heartbeat replaces this one on the platform.
      setTimeout(() => {
        if (announced !== undefined) return;
        platformFetch(`${paths.environment}/presence`, { method: 'DELETE' }).catch(() => {});
      }, 0);
    };
  }, [key, status, live, paths.environment, collection, recordId]);

  useSyncExternalStore(
    (listener) => live.presence.subscribe(listener),
    () => live.presence.version,
  );
  return live.presence.others(collection, recordId, live.me);
}
