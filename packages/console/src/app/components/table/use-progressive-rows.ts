/** The rows of a page to mount now (progressive-rows.ts). */
import { startTransition, useEffect, useState } from 'react';
import { afterNextPaint } from '../../after-paint';
import { firstRows, mountMore } from './progressive-rows';

export function useProgressiveRows(page: unknown, rowCount: number) {
  const [mounted, setMounted] = useState(() => ({
    data: page,
    count: firstRows(window.innerHeight),
  }));
  let mountedCount = mounted.count;
  if (mounted.data !== page) {
    mountedCount = firstRows(window.innerHeight);
    setMounted({ data: page, count: mountedCount });
  }
  useEffect(() => {
    if (mounted.count >= rowCount) return;
    return afterNextPaint(() =>
      startTransition(() => setMounted((was) => mountMore(was, mounted.data))),
    );
  }, [mounted, rowCount]);
  return { mountedCount, allMounted: mountedCount >= rowCount };
}
