import { AgentError } from './agent-error';

/** One invalid option: which one, and what would be right. Never carries a secret's value. */
export interface AgentOptionProblem {
  option: string;
  message: string;
}

/**
 * Thrown by `createAgent` when options are missing or wrong; lists every problem at once.
 * Code `INVALID_AGENT_OPTIONS`.
 */
export class AgentOptionsError extends AgentError {
  readonly problems: readonly AgentOptionProblem[];

  constructor(problems: AgentOptionProblem[]) {
    const lines = problems.map(({ option, message }) => `  - ${option}: ${message}`);
    super('INVALID_AGENT_OPTIONS', `Invalid agent options:\n${lines.join('\n')}`);
    this.problems = problems;
  }
}
