export * from './schema';
export * from './operators';
export * from './conditions';
// Records as the agent's JSON:API documents decode (the decoder is platform-protocol's).
export type { AgentRecord, ResourceIdentifier } from '@canopy/platform-protocol';
export * from './query';
export * from './client';
export * from './error-envelope';
export * from './platform-client';
export * from './view-state';
export * from './actions';
export * from './approvals';
export * from './charts';
export * from './history';
export * from './list-notice';
export * from './error-text';
export * from './field-rules';
export * from './saved-views';
export * from './bulk-edit';
