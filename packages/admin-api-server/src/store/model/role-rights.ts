/** Collection rights of a role; an absent right is granted. */
export interface CollectionRights {
  browseEnabled?: boolean;
  readEnabled?: boolean;
  editEnabled?: boolean;
  addEnabled?: boolean;
  deleteEnabled?: boolean;
  exportEnabled?: boolean;
}

/**
 * Action rights of a role; absent rights are granted, except `approvalRequired` (false). A
 * condition (a condition tree, platform protocol 5.4) narrows the right it names to the records
 * that match it; `null` or absent means no condition.
 */
export interface ActionRights {
  triggerEnabled?: boolean;
  approvalRequired?: boolean;
  userApprovalEnabled?: boolean;
  selfApprovalEnabled?: boolean;
  triggerConditions?: Record<string, unknown> | null;
  approvalRequiredConditions?: Record<string, unknown> | null;
  userApprovalConditions?: Record<string, unknown> | null;
}

/** What a role may do: per collection, and per collection and action display name. */
export interface RoleRights {
  collections?: Record<string, CollectionRights>;
  actions?: Record<string, Record<string, ActionRights>>;
}

/** The collection right names, in the protocol's order. */
export const COLLECTION_RIGHTS = [
  'browseEnabled',
  'readEnabled',
  'editEnabled',
  'addEnabled',
  'deleteEnabled',
  'exportEnabled',
] as const;

/** The action right names. */
export const ACTION_RIGHTS = [
  'triggerEnabled',
  'approvalRequired',
  'userApprovalEnabled',
  'selfApprovalEnabled',
] as const;

/** The action rights that may carry a condition tree, and the right each one narrows. */
export const ACTION_CONDITIONS = {
  triggerConditions: 'triggerEnabled',
  approvalRequiredConditions: 'approvalRequired',
  userApprovalConditions: 'userApprovalEnabled',
} as const;

/** A role as the permission builder needs it. */
export interface RoleWithRights {
  id: number;
  rights: RoleRights;
}
