/**
 * The agent's use cases, one file each (see the package README, "Layers"): plain async functions
 * of (context, caller, collection or relation, parsed request), shared by the REST routes, the
 * hot routes and the MCP tools.
 */
export { associateRecord, type AssociateRequest } from './associate';
export {
  changeActionForm,
  loadActionForm,
  searchActionForm,
  type ChangeFormRequest,
  type LoadFormRequest,
  type SearchFormRequest,
} from './action-form';
export type { ActionRecords, ActionTarget } from './action-selection';
export { runChart } from './chart';
export {
  createOperationContext,
  findCollection,
  type OperationCaller,
  type OperationContext,
} from './context';
export { countRecords, type CountRequest, type CountResult } from './count';
export { countRelated, type CountRelatedRequest } from './count-related';
export { bulkUpdateRecords, type BulkUpdateRequest, type BulkUpdateResult } from './bulk-update';
export { createRecord, type CreateRequest } from './create';
export { exportRecords, type ExportReader, type ExportRequest } from './csv';
export { deleteRecords, type DeleteRequest } from './delete';
export { dissociateRecords, type DissociateRequest } from './dissociate';
export { executeAction, type ExecuteActionRequest } from './execute-action';
export { buildFilter, type FilterParameters } from './filter';
export { getRecord, type GetRequest } from './get';
export { listRecords, type ListRequest, type ListResult } from './list';
export { exportRelated, listRelated, type ListRelatedRequest } from './list-related';
export { resolveRelation, type RelationTarget } from './relation';
export { renderCollectionChart, renderDataSourceChart } from './render-chart';
export type { ParsedRequest } from './request';
export { asToOne, setRelation, type SetRelationRequest } from './set-relation';
export { updateArrayElement, type UpdateArrayElementRequest } from './update-array-element';
export { updateRecord, type UpdateRequest } from './update';
