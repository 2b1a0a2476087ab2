// The agent's lifecycle: createAgent, options, typed customizations, errors.
export { createAgent } from './create-agent';
export {
  Agent,
  type AgentDependencies,
  type CollectionName,
  type DataSourceBuild,
  type TypingsSchema,
} from './agent';
export { type AgentOptions, type ResolvedAgentOptions, resolveAgentOptions } from './agent-options';
export {
  type ColumnName,
  type FieldPath,
  type TypedCollectionCustomizer,
  type CustomizerOf,
} from './typed-collection-customizer';
export { AgentError, isAgentError, type AgentErrorCode } from './agent-error';
export { AgentOptionsError, type AgentOptionProblem } from './agent-options-error';
