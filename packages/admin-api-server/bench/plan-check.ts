/**
 * Whether an `EXPLAIN (ANALYZE)` plan of an activity-log query reads through indexes. A
 * sequential (or bitmap heap) scan fails it only when it reads more than `tolerance` rows: the
 * planner rightly scans an empty or nearly empty monthly partition (the months created ahead)
 * without its index, and that costs nothing.
 */
export function planReadsThroughIndexes(lines: readonly string[], tolerance = 1000): boolean {
  if (!lines.some((line) => /Index (Only )?Scan/.test(line))) return false;
  for (const [index, line] of lines.entries()) {
    if (!/(Seq Scan|Bitmap Heap Scan) on activity_logs/.test(line)) continue;
    const returned = Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(line)?.[1] ?? Infinity);
    // "Rows Removed by Filter" follows on the scan's own detail lines.
    let removed = 0;
    for (const detail of lines.slice(index + 1)) {
      if (/->/.test(detail)) break;
      removed += Number(/Rows Removed by Filter: (\d+)/.exec(detail)?.[1] ?? 0);
    }
    if (returned + removed > tolerance) return false;
  }
  return true;
}
