/**
 * The settings forms' logic, without React: editing a role's rights in the management API's
 * shape (an absent right is granted, except "requires approval"), team scopes, token expiry and
 * the invitation form's checks.
 */
import { compactTree, type ConditionTree } from '../../../protocol';
import type {
  ActionCondition,
  ActionSwitch,
  CollectionRight,
  ManagedRoleRights,
  Member,
  ApplicationTokenScope,
} from './management-api';

export const COLLECTION_RIGHTS: { key: CollectionRight; label: string }[] = [
  { key: 'browseEnabled', label: 'Browse' },
  { key: 'readEnabled', label: 'Read' },
  { key: 'editEnabled', label: 'Edit' },
  { key: 'addEnabled', label: 'Add' },
  { key: 'deleteEnabled', label: 'Delete' },
  { key: 'exportEnabled', label: 'Export' },
];

export const ACTION_SWITCHES: {
  key: ActionSwitch;
  label: string;
  condition?: ActionCondition;
}[] = [
  { key: 'triggerEnabled', label: 'Trigger', condition: 'triggerConditions' },
  { key: 'approvalRequired', label: 'Requires approval', condition: 'approvalRequiredConditions' },
  { key: 'userApprovalEnabled', label: 'Approve', condition: 'userApprovalConditions' },
  { key: 'selfApprovalEnabled', label: 'Self-approve' },
];

/** What a right is when the role does not mention it. */
export function defaultOf(right: CollectionRight | ActionSwitch): boolean {
  return right !== 'approvalRequired';
}

export function collectionRight(
  rights: ManagedRoleRights,
  collection: string,
  right: CollectionRight,
): boolean {
  return rights.collections?.[collection]?.[right] ?? defaultOf(right);
}

export function actionRight(
  rights: ManagedRoleRights,
  collection: string,
  action: string,
  right: ActionSwitch,
): boolean {
  return rights.actions?.[collection]?.[action]?.[right] ?? defaultOf(right);
}

export function actionCondition(
  rights: ManagedRoleRights,
  collection: string,
  action: string,
  condition: ActionCondition,
): ConditionTree | undefined {
  return (rights.actions?.[collection]?.[action]?.[condition] ?? undefined) as
    ConditionTree | undefined;
}

/** `record` without the entries whose value is `undefined` or an empty object. */
function pruned<T extends object>(record: Record<string, T | undefined>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).filter(
      (entry): entry is [string, T] => entry[1] !== undefined && Object.keys(entry[1]).length > 0,
    ),
  );
}

/** The rights with one collection right set; a right equal to its default is left out. */
export function withCollectionRight(
  rights: ManagedRoleRights,
  collection: string,
  right: CollectionRight,
  value: boolean,
): ManagedRoleRights {
  const current = { ...rights.collections?.[collection] };
  if (value === defaultOf(right)) delete current[right];
  else current[right] = value;
  const collections = pruned({ ...rights.collections, [collection]: current });
  return normalized({ ...rights, collections });
}

/** The rights with one action switch set (or condition set, `undefined` clearing it). */
export function withActionRight(
  rights: ManagedRoleRights,
  collection: string,
  action: string,
  change:
    | { right: ActionSwitch; value: boolean }
    | { condition: ActionCondition; tree: ConditionTree | undefined },
): ManagedRoleRights {
  const current = { ...rights.actions?.[collection]?.[action] };
  if ('right' in change) {
    if (change.value === defaultOf(change.right)) delete current[change.right];
    else current[change.right] = change.value;
  } else {
    const tree = compactTree(change.tree);
    if (tree) current[change.condition] = tree as unknown as Record<string, unknown>;
    else delete current[change.condition];
  }
  const ofCollection = pruned({ ...rights.actions?.[collection], [action]: current });
  const actions = pruned({ ...rights.actions, [collection]: ofCollection });
  return normalized({ ...rights, actions });
}

function normalized(rights: ManagedRoleRights): ManagedRoleRights {
  const result: ManagedRoleRights = {};
  if (rights.collections && Object.keys(rights.collections).length > 0) {
    result.collections = rights.collections;
  }
  if (rights.actions && Object.keys(rights.actions).length > 0) result.actions = rights.actions;
  return result;
}

/** A team's scopes with one collection's condition tree replaced (`undefined`: no scope). */
export function withScope(
  scopes: Record<string, unknown>,
  collection: string,
  tree: ConditionTree | undefined,
): Record<string, unknown> {
  const compact = compactTree(tree);
  const next = { ...scopes };
  if (compact) next[collection] = compact;
  else delete next[collection];
  return next;
}

export const EXPIRY_CHOICES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];

/** The `expiresAt` of a token that lives `days` days from `now`. */
export function expiryAfter(days: number, now = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString();
}

export interface TokenDraft {
  name: string;
  scopes: ApplicationTokenScope[];
  days: number;
}

/** What is wrong with a token form, by field (empty when it may be sent). */
export function tokenProblems(draft: TokenDraft): Partial<Record<keyof TokenDraft, string>> {
  const problems: Partial<Record<keyof TokenDraft, string>> = {};
  if (!draft.name.trim()) problems.name = 'Give the token a name that says what uses it.';
  else if (draft.name.length > 200) problems.name = 'At most 200 characters.';
  if (draft.scopes.length === 0) problems.scopes = 'Choose at least one scope.';
  if (!Number.isInteger(draft.days) || draft.days < 1 || draft.days > 3650) {
    problems.days = 'Between 1 and 3650 days.';
  }
  return problems;
}

/** The invitation form: the fields of the member it adds (`POST …/members`). */
export type InviteDraft = Pick<
  Member,
  'email' | 'firstName' | 'lastName' | 'permissionLevel' | 'roleName' | 'teamNames'
>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with an invitation form, by field (empty when it may be sent). */
export function inviteProblems(
  draft: InviteDraft,
  existingEmails: readonly string[],
): Partial<Record<keyof InviteDraft, string>> {
  const problems: Partial<Record<keyof InviteDraft, string>> = {};
  const email = draft.email.trim().toLowerCase();
  if (!EMAIL.test(email)) problems.email = 'Enter an email address such as ada@example.com.';
  else if (existingEmails.some((known) => known.toLowerCase() === email)) {
    problems.email = 'This person is already a member of the project.';
  }
  return problems;
}

/** The body of `POST …/members` from the form. */
export function inviteBody(draft: InviteDraft) {
  return {
    email: draft.email.trim(),
    ...(draft.firstName.trim() ? { firstName: draft.firstName.trim() } : {}),
    ...(draft.lastName.trim() ? { lastName: draft.lastName.trim() } : {}),
    permissionLevel: draft.permissionLevel,
    roleName: draft.roleName,
    // No team: the server puts the member in the project's default team.
    ...(draft.teamNames.length > 0 ? { teamNames: draft.teamNames } : {}),
  };
}

/** A name for an environment, as the API takes it (trimmed, 1-200 characters). */
export function nameProblem(name: string, taken: readonly string[]): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'A name is required.';
  if (trimmed.length > 200) return 'At most 200 characters.';
  if (taken.includes(trimmed)) return `"${trimmed}" exists already.`;
  return undefined;
}

/** The origin (scheme, host and port) of an http(s) API endpoint; undefined for anything else. */
export function endpointOrigin(url: string | null | undefined): string | undefined {
  if (!url?.trim() || endpointProblem(url)) return undefined;
  return new URL(url.trim()).origin;
}

/**
 * The origin an admin must confirm before the console trusts it as an environment's agent: the
 * new endpoint's origin when it is not the one the environment already had; undefined when there
 * is nothing new to trust (same origin, no endpoint, or an invalid one).
 */
export function originToConfirm(
  previous: string | null | undefined,
  next: string,
): string | undefined {
  const origin = endpointOrigin(next);
  return origin !== undefined && origin !== endpointOrigin(previous) ? origin : undefined;
}

/** An API endpoint as the API takes it: an http(s) URL, or empty for none. */
export function endpointProblem(url: string): string | undefined {
  if (!url.trim()) return undefined;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:'
      ? undefined
      : 'Use an http:// or https:// URL.';
  } catch {
    return 'Enter the agent URL, such as https://agent.example.com.';
  }
}
