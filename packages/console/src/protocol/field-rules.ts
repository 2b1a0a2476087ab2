/**
 * The limits a form enforces before it sends a value: those the schema carries (`validations`,
 * which include the text length the agent derives from a `varchar(n)` column, enum values) and
 * the bounds of an action's number input. The agent checks them again; checking here first tells
 * the user at once, on the field, in words.
 */
import type { SchemaField } from './schema';

type Validation = NonNullable<SchemaField['validations']>[number];

export interface FieldLimits {
  type: SchemaField['type'];
  enums?: string[] | null;
  validations?: readonly Validation[];
  /** Number bounds, inclusive (an action's number input). */
  min?: number | null;
  max?: number | null;
}

/** The most characters a text field takes (an `is shorter than n` validation: n - 1). */
export function maxLength(field: FieldLimits): number | undefined {
  const rule = field.validations?.find((v) => v.type === 'is shorter than');
  const bound = Number(rule?.value);
  return rule && Number.isFinite(bound) ? bound - 1 : undefined;
}

const characters = (text: string) => [...text].length;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function asTime(value: unknown): number {
  return typeof value === 'number' ? value : Date.parse(String(value));
}

function ruleProblem(rule: Validation, label: string, value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : undefined;
  const bound = rule.value;
  switch (rule.type) {
    case 'is shorter than':
      return text !== undefined && characters(text) >= Number(bound)
        ? `${label} takes at most ${plural(Number(bound) - 1, 'character')}; you entered ${characters(text)}.`
        : undefined;
    case 'is longer than':
      return text !== undefined && characters(text) <= Number(bound)
        ? `${label} needs at least ${plural(Number(bound) + 1, 'character')}.`
        : undefined;
    case 'is greater than':
      return typeof value === 'number' && !(value > Number(bound))
        ? `${label} must be greater than ${String(bound)}.`
        : undefined;
    case 'is less than':
      return typeof value === 'number' && !(value < Number(bound))
        ? `${label} must be less than ${String(bound)}.`
        : undefined;
    case 'is after':
      return value && !(asTime(value) > asTime(bound))
        ? `${label} must be after ${String(bound)}.`
        : undefined;
    case 'is before':
      return value && !(asTime(value) < asTime(bound))
        ? `${label} must be before ${String(bound)}.`
        : undefined;
    case 'contains':
      return text !== undefined && !text.includes(String(bound))
        ? `${label} must contain “${String(bound)}”.`
        : undefined;
    case 'is like':
      try {
        return text !== undefined && !new RegExp(String(bound)).test(text)
          ? `${label} is not in the expected format.`
          : undefined;
      } catch {
        return undefined;
      }
    default:
      return undefined;
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * What is wrong with a value of a field, in words naming the field by its label; `undefined` when
 * the value is acceptable. An empty value is left to the required check.
 *
 * @example
 * valueProblem({ type: 'String', validations: [{ type: 'is shorter than', value: 51 }] },
 *   'First name', 'x'.repeat(300))
 * // 'First name takes at most 50 characters; you entered 300.'
 */
export function valueProblem(
  field: FieldLimits,
  label: string,
  value: unknown,
): string | undefined {
  if (isEmpty(value)) {
    return field.validations?.some((v) => v.type === 'is present')
      ? `${label} is required.`
      : undefined;
  }
  if (field.type === 'Enum' && field.enums?.length && !field.enums.includes(String(value))) {
    return `${label} must be one of: ${field.enums.join(', ')}.`;
  }
  if (typeof value === 'number') {
    if (typeof field.min === 'number' && value < field.min)
      return `${label} must be at least ${field.min}.`;
    if (typeof field.max === 'number' && value > field.max)
      return `${label} must be at most ${field.max}.`;
  }
  for (const rule of field.validations ?? []) {
    const problem = ruleProblem(rule, label, value);
    if (problem) return problem;
  }
  return undefined;
}
