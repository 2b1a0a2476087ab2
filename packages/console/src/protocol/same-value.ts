/**
 * The comparison of a field's values that reverts and edit conflicts use, in a module of its own:
 * the table's inline edit needs it on the first screen, the rest of revert planning does not.
 */

/** Whether two values are the same once both are JSON (dates and numbers as the agent sends). */
export function sameRevertValue(a: unknown, b: unknown): boolean {
  const left = a === undefined ? null : a;
  const right = b === undefined ? null : b;
  if (JSON.stringify(left) === JSON.stringify(right)) return true;
  // A number stored as text by one side (big integers, decimals) and as a number by the other.
  if (
    (typeof left === 'number' || typeof left === 'string') &&
    (typeof right === 'number' || typeof right === 'string') &&
    String(left).trim() !== '' &&
    Number(left) === Number(right)
  ) {
    return true;
  }
  // A date-time written with another precision or offset.
  const dateTime = /^\d{4}-\d{2}-\d{2}T/;
  if (
    typeof left === 'string' &&
    typeof right === 'string' &&
    (dateTime.test(left) || dateTime.test(right)) &&
    /^\d{4}-\d{2}-\d{2}/.test(left) &&
    /^\d{4}-\d{2}-\d{2}/.test(right)
  ) {
    const [l, r] = [Date.parse(left), Date.parse(right)];
    return Number.isFinite(l) && l === r;
  }
  return false;
}
