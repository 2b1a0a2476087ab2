// The agent's lifecycle: createAgent, options, errors.
export { createAgent } from './create-agent';
export {
  Agent,
  type AgentDependencies,
  type CollectionName,
  type DataSourceBuild,
  type TypingsSchema,
} from './agent';
export { type AgentOptions, type ResolvedAgentOptions, resolveAgentOptions } from './agent-options';
export { AgentError, isAgentError, type AgentErrorCode } from './agent-error';
export { AgentOptionsError, type AgentOptionProblem } from './agent-options-error';
