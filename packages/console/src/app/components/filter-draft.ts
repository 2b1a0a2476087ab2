/**
 * The filter being edited in the builder: a draft that outlives closing the builder (Escape,
 * a click outside) until it is applied or cleared; a new filter in the address replaces it.
 */
import { useState } from 'react';
import type { ConditionBranch, ConditionTree } from '../../protocol';
import { asGroup } from './filter-fields';

/** Whether the draft differs from the applied filter (as the builder shows it). */
export function draftDiffers(draft: ConditionBranch, applied: ConditionTree | undefined): boolean {
  return JSON.stringify(draft) !== JSON.stringify(asGroup(applied));
}

export function useFilterDraft(applied: ConditionTree | undefined) {
  const appliedKey = JSON.stringify(applied ?? null);
  const [state, setState] = useState(() => ({ key: appliedKey, draft: asGroup(applied) }));
  let draft = state.draft;
  if (state.key !== appliedKey) {
    draft = asGroup(applied);
    setState({ key: appliedKey, draft });
  }
  return {
    draft,
    setDraft: (next: ConditionBranch) => setState((was) => ({ ...was, draft: next })),
    /** Edited and not applied. */
    dirty: draftDiffers(draft, applied),
  };
}
