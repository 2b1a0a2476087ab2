/**
 * Differences between two versions of a record's values, and the merge of a form refused by a
 * conditional update (agent protocol §8.5: `412` with the record's values now). Pure functions.
 */

type Values = Readonly<Record<string, unknown>>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The fields of `fields` (in that order) whose value differs between `before` and `after`;
 * a field `after` does not hold is left out (a relation, a column the answer did not carry).
 */
export function recordDiff(
  fields: readonly string[],
  before: Values,
  after: Values,
): FieldChange[] {
  return fields
    .filter((field) => Object.hasOwn(after, field) && !same(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

export interface MergePlan {
  /** Changed by both, to different values: the user chooses. */
  conflicts: { field: string; theirs: unknown; mine: unknown }[];
  /** Changed by them only: their value is taken. */
  theirsOnly: string[];
}

/**
 * What a refused save means, field by field: `base` is what the form loaded, `mine` what it
 * holds now, `theirs` the record's values now (fields it does not hold are left alone).
 */
export function mergePlan(
  fields: readonly string[],
  base: Values,
  mine: Values,
  theirs: Values,
): MergePlan {
  const plan: MergePlan = { conflicts: [], theirsOnly: [] };
  for (const field of fields) {
    if (!Object.hasOwn(theirs, field) || same(base[field], theirs[field])) continue;
    if (same(base[field], mine[field])) plan.theirsOnly.push(field);
    else if (!same(mine[field], theirs[field]))
      plan.conflicts.push({ field, theirs: theirs[field], mine: mine[field] });
  }
  return plan;
}

/**
 * The form after a merge: `values` to show (their value for what only they changed, the chosen
 * one for each conflict, mine elsewhere) and `base`, the record as it is now, against which the
 * next save sends only what differs.
 */
export function applyMerge(
  plan: MergePlan,
  base: Values,
  mine: Values,
  theirs: Values,
  choices: Readonly<Record<string, 'theirs' | 'mine'>>,
): { values: Record<string, unknown>; base: Record<string, unknown> } {
  const values: Record<string, unknown> = { ...mine };
  for (const field of plan.theirsOnly) values[field] = theirs[field];
  for (const { field } of plan.conflicts) {
    values[field] = (choices[field] ?? 'mine') === 'theirs' ? theirs[field] : mine[field];
  }
  const nextBase: Record<string, unknown> = { ...base };
  for (const field of Object.keys(base)) {
    if (Object.hasOwn(theirs, field)) nextBase[field] = theirs[field];
  }
  return { values, base: nextBase };
}
