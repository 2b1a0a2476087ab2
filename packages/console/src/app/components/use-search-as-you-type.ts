/**
 * The search box of a list: what is typed is searched ~300 ms after the last key (no Enter
 * needed; Enter searches at once), and a search the address changes (back button, "clear")
 * shows in the box.
 */
import { useEffect, useRef, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

export function useSearchAsYouType(applied: string, apply: (text: string) => void) {
  const [text, setText] = useState(applied);
  const [seen, setSeen] = useState(applied);
  if (applied !== seen) {
    setSeen(applied);
    // Not when it is what is being typed (the address drops the trailing space of "ann ").
    if (applied !== text.trim()) setText(applied);
  }
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const typed = text.trim();
  useEffect(() => {
    if (typed === applied) return;
    const timer = setTimeout(() => applyRef.current(typed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, applied]);
  return {
    text,
    setText,
    /** Typed but not searched yet. */
    waiting: typed !== applied,
    /** Searches what is typed now (Enter). */
    flush() {
      if (typed !== applied) apply(typed);
    },
    clear() {
      setText('');
      if (applied) apply('');
    },
  };
}
