/**
 * Layout mode (issue 32): an editor changes a team's layout — their own team's, or for an admin
 * any team of the project — as their own draft (saved on the platform as they go,
 * `PUT …/layout/draft`), seen live in their Console only, then publishes it for the team,
 * discards it, or undoes the last publish (the previous version again). Errors of the platform
 * are kept for the panel to say in the user's words (ErrorMessage).
 */
import type { ConsoleLayout, PublishedLayout } from '@canopy/platform-protocol';
import { useEffect, useRef, useState } from 'react';
import { useWorkspace } from '../workspace';
import { layoutCalls, useTeamLayout } from './team-layout';

/** How long edits wait before the draft is saved (typing a width saves once). */
const SAVE_DELAY_MS = 500;

export function useLayoutEditor(target: string) {
  const workspace = useWorkspace();
  const team = useTeamLayout();
  const calls = layoutCalls(workspace.project, workspace.environment.name, target);
  const [published, setPublished] = useState<PublishedLayout | null>(null);
  const [busy, setBusy] = useState<string | undefined>('open');
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>();
  const timer = useRef<number | undefined>(undefined);
  /** The draft waiting for its save: saved at once when the panel closes. */
  const pending = useRef<ConsoleLayout | undefined>(undefined);
  const { setPreview } = team;
  const save = (next: ConsoleLayout) => {
    pending.current = undefined;
    calls.saveDraft(next).then(
      () => setError(undefined),
      (failure: unknown) => setError(failure),
    );
  };

  // Opening layout mode (or another team) shows the caller's draft, else the published layout.
  useEffect(() => {
    let live = true;
    setBusy('open');
    setError(undefined);
    setNotice(undefined);
    Promise.all([calls.readPublished(), calls.readDraft()]).then(
      ([current, draft]) => {
        if (!live) return;
        setPublished(current);
        setPreview(draft.layout ?? current?.layout ?? {});
        setBusy(undefined);
      },
      (failure: unknown) => {
        if (!live) return;
        setError(failure);
        setBusy(undefined);
      },
    );
    return () => {
      live = false;
      window.clearTimeout(timer.current);
      if (pending.current) save(pending.current);
      setPreview(null);
    };
  }, [target]);

  const run = async (label: string, call: () => Promise<PublishedLayout | null>, done: string) => {
    window.clearTimeout(timer.current);
    pending.current = undefined;
    setBusy(label);
    setError(undefined);
    setNotice(undefined);
    try {
      const now = await call();
      setPublished(now);
      if (target === team.teamName) await team.reload();
      setNotice(done);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(undefined);
    }
  };

  const draft = team.preview;
  return {
    /** The team whose layout this is. */
    team: target,
    draft,
    busy,
    error,
    notice,
    published,
    /** A new draft: shown at once, saved shortly after. */
    change(next: ConsoleLayout) {
      setPreview(next);
      setNotice(undefined);
      window.clearTimeout(timer.current);
      pending.current = next;
      timer.current = window.setTimeout(() => save(next), SAVE_DELAY_MS);
    },
    async publish() {
      const current = draft ?? {};
      await run(
        'publish',
        async () => {
          await calls.saveDraft(current);
          return calls.publish();
        },
        `Published: everyone in ${target} sees this layout when they next open the Console.`,
      );
    },
    async discard() {
      const ok = await run(
        'discard',
        () => calls.discardDraft().then(() => published),
        'Draft discarded: the published layout is shown.',
      );
      if (ok) setPreview(published?.layout ?? {});
    },
    /** Another team's published layout as the next version of this one (admins). */
    async copyFrom(team: string) {
      let now: PublishedLayout | null = null;
      const ok = await run(
        'copy',
        async () => {
          now = await calls.copyFrom(team);
          await calls.discardDraft();
          return now;
        },
        `${team}'s layout is now published for ${target}.`,
      );
      if (ok) setPreview((now as PublishedLayout | null)?.layout ?? {});
    },
    /** Version `n - 1` again as version `n + 1`; none before the first publish. */
    canUndo: published !== null && published.version > 1,
    async undo() {
      if (!published || published.version <= 1) return;
      const previous = published.version - 1;
      let now: PublishedLayout | null = null;
      const ok = await run(
        'undo',
        async () => {
          now = await calls.revert(previous);
          await calls.discardDraft();
          return now;
        },
        `Version ${previous} is published again.`,
      );
      if (ok) setPreview((now as PublishedLayout | null)?.layout ?? {});
    },
  };
}
