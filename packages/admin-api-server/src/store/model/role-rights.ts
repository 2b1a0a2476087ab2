/** Collection rights of a role; an absent right is granted. */
export interface CollectionRights {
  browseEnabled?: boolean;
  readEnabled?: boolean;
  editEnabled?: boolean;
  addEnabled?: boolean;
  deleteEnabled?: boolean;
  exportEnabled?: boolean;
}

/** Action rights of a role; absent rights are granted, except `approvalRequired` (false). */
export interface ActionRights {
  triggerEnabled?: boolean;
  approvalRequired?: boolean;
  userApprovalEnabled?: boolean;
  selfApprovalEnabled?: boolean;
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

/** A role as the permission builder needs it. */
export interface RoleWithRights {
  id: number;
  rights: RoleRights;
}
