/**
 * The live stream of the signed-in workspace (live-client.ts), for every page: it makes the
 * cached platform answers an event concerns stale (rights, approvals, notes, inbox), keeps who
 * has which record open, and hands record changes and mentions to the pages that show them
 * (`useLiveEvents`). Mounted once, inside the workspace.
 */
import type { ConsoleStreamTicket, MentionEvent, PresenceEvent } from '@canopy/platform-protocol';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { platformJson, usePlatformPaths } from '../../platform-calls';
import { useWorkspace } from '../../workspace';
import { LiveStream, type LiveEvent } from './live-client';
import { PresenceStore, setLiveStatus, staleQueries } from './live-events';

export interface Live {
  /** The signed-in user's platform id. */
  me: number;
  presence: PresenceStore;
  /** The open stream's id, for presence heartbeats (undefined while it is not open). */
  streamId(): string | undefined;
  /** Calls `listener` with every event; returns the unsubscribe. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

const LiveContext = createContext<Live | undefined>(undefined);

export function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('useLive outside the live provider');
  return live;
}

/** Calls `handler` with each live event (the latest `handler`, without resubscribing). */
export function useLiveEvents(handler: (event: LiveEvent) => void): void {
  const live = useLive();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => live.subscribe((event) => latest.current(event)), [live]);
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const workspace = useWorkspace();
  const paths = usePlatformPaths();
  const queryClient = useQueryClient();
  const me = workspace.userId;
  const workspaceId = workspace.id;

  const { live, stream } = useMemo(() => {
    const listeners = new Set<(event: LiveEvent) => void>();
    const presence = new PresenceStore();
    const stream = new LiveStream({
      ticket: async () =>
        (
          await platformJson<ConsoleStreamTicket>(`${paths.environment}/live/tickets`, {
            method: 'POST',
          })
        ).url,
      onStatus: setLiveStatus,
      onEvent: (event) => {
        for (const queryKey of staleQueries(event.type, workspaceId)) {
          void queryClient.invalidateQueries({ queryKey });
        }
        if (event.type === 'presence') presence.apply(event.data as PresenceEvent);
        if (event.type === 'mention') {
          const mention = event.data as MentionEvent;
          notifications.show({
            color: 'teal',
            title: 'You were mentioned',
            message: `In a note on ${mention.collectionName ?? 'the project'} #${mention.recordId}.`,
          });
        }
        listeners.forEach((listener) => listener(event));
      },
    });
    const live: Live = {
      me,
      presence,
      streamId: () => stream.streamId,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    return { live, stream };
  }, [paths.environment, queryClient, me, workspaceId]);

  useEffect(() => {
    stream.start();
    return () => {
      stream.stop();
      setLiveStatus('connecting');
    };
  }, [stream]);

  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}
