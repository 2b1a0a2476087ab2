/**
 * The rights a role holds, as the platform server stores them and the testing sandbox declares
 * them (platform protocol section 5): per collection, and per collection and action display name.
 */

/**
 * A condition tree as JSON (platform protocol 5.4): a leaf or an `and`/`or` branch. Action
 * conditions may carry a `source` (`data` or `input`) that agents ignore.
 */
export type PlainConditionTree =
  | { field: string; operator: string; value?: unknown; source?: string }
  | { aggregator: 'and' | 'or' | 'And' | 'Or'; conditions: PlainConditionTree[] };

/** The collection right names, in the protocol's order. */
export const COLLECTION_RIGHTS = [
  'browseEnabled',
  'readEnabled',
  'editEnabled',
  'addEnabled',
  'deleteEnabled',
  'exportEnabled',
] as const;

/** One collection right name. */
export type CollectionRight = (typeof COLLECTION_RIGHTS)[number];

/** The action right names. */
export const ACTION_RIGHTS = [
  'triggerEnabled',
  'approvalRequired',
  'userApprovalEnabled',
  'selfApprovalEnabled',
] as const;

/** One action right name. */
export type ActionRight = (typeof ACTION_RIGHTS)[number];

/** The action rights that may carry a condition tree, and the right each one narrows. */
export const ACTION_CONDITIONS = {
  triggerConditions: 'triggerEnabled',
  approvalRequiredConditions: 'approvalRequired',
  userApprovalConditions: 'userApprovalEnabled',
} as const;

/** One action condition name. */
export type ActionCondition = keyof typeof ACTION_CONDITIONS;

/** Collection rights of a role; an absent right is granted. */
export type CollectionRights = { [right in CollectionRight]?: boolean };

/**
 * Action rights of a role; absent rights are granted, except `approvalRequired` (false). A
 * condition (a condition tree, platform protocol 5.4) narrows the right it names to the records
 * that match it; `null` or absent means no condition. `Condition` is how the caller types a tree.
 */
export type ActionRights<Condition = PlainConditionTree> = { [right in ActionRight]?: boolean } & {
  [condition in ActionCondition]?: Condition | null;
};

/** What a role may do: per collection, and per collection and action display name. */
export interface RoleRights<Condition = PlainConditionTree> {
  collections?: Record<string, CollectionRights>;
  actions?: Record<string, Record<string, ActionRights<Condition>>>;
}

/** A role as the permission builder needs it. */
export interface RoleWithRights<Condition = PlainConditionTree> {
  id: number;
  rights: RoleRights<Condition>;
}
