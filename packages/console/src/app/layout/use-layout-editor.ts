/**
 * Layout mode (issue 32): an editor changes the team's layout as their own draft (saved on the
 * platform as they go, `PUT …/layout/draft`), seen live in their Console only, then publishes it
 * for the team, discards it, or undoes the last publish (the previous version again). Errors of
 * the platform are kept for the panel to say in the user's words (ErrorMessage).
 */
import type { ConsoleLayout } from '@canopy/platform-protocol';
import { useEffect, useRef, useState } from 'react';
import { useWorkspace } from '../workspace';
import { layoutCalls, useTeamLayout } from './team-layout';

/** How long edits wait before the draft is saved (typing a width saves once). */
const SAVE_DELAY_MS = 500;

export function useLayoutEditor(open: boolean) {
  const workspace = useWorkspace();
  const team = useTeamLayout();
  const calls = layoutCalls(workspace.project, workspace.environment.name, team.teamName);
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState<string | undefined>();
  const timer = useRef<number | undefined>(undefined);
  const { setPreview } = team;

  // Opening layout mode shows the caller's draft (or the published layout to start one from).
  useEffect(() => {
    if (!open) return;
    let live = true;
    setError(undefined);
    setNotice(undefined);
    calls.readDraft().then(
      (draft) => live && setPreview(draft.layout ?? team.published?.layout ?? {}),
      (failure: unknown) => {
        if (!live) return;
        setError(failure);
        setPreview(team.published?.layout ?? {});
      },
    );
    return () => {
      live = false;
      window.clearTimeout(timer.current);
      setPreview(null);
    };
  }, [open]);

  const run = async (label: string, call: () => Promise<unknown>, done: string) => {
    window.clearTimeout(timer.current);
    setBusy(label);
    setError(undefined);
    setNotice(undefined);
    try {
      await call();
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
  const published = team.published;
  return {
    draft,
    busy,
    error,
    notice,
    /** A new draft: shown at once, saved shortly after. */
    change(next: ConsoleLayout) {
      setPreview(next);
      setNotice(undefined);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        calls.saveDraft(next).then(
          () => setError(undefined),
          (failure: unknown) => setError(failure),
        );
      }, SAVE_DELAY_MS);
    },
    async publish() {
      const current = draft ?? {};
      const ok = await run(
        'publish',
        async () => {
          await calls.saveDraft(current);
          await calls.publish();
          await team.reload();
        },
        `Published: everyone in ${team.teamName} sees this layout when they next open the Console.`,
      );
      if (ok) setPreview(current);
    },
    async discard() {
      const ok = await run(
        'discard',
        () => calls.discardDraft(),
        'Draft discarded: the published layout is shown.',
      );
      if (ok) setPreview(published?.layout ?? {});
    },
    /** Version `n - 1` again as version `n + 1`; none before the first publish. */
    canUndo: published !== null && published.version > 1,
    async undo() {
      if (!published || published.version <= 1) return;
      const ok = await run(
        'undo',
        async () => {
          await calls.revert(published.version - 1);
          await calls.discardDraft();
          await team.reload();
        },
        `Version ${published.version - 1} is published again.`,
      );
      if (ok) setPreview(null);
    },
  };
}
