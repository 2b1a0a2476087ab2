/**
 * What the list area says when the agent refuses a list: a team scope the agent cannot apply
 * (`InvalidScopeError`, 422) is the project's configuration, not the user's doing, and is said so
 * in one sentence; a 403 is a missing right; anything else is the agent's own message.
 */
import { AgentError } from './client';

export interface ListNotice {
  title: string;
  message: string;
  color: 'red' | 'orange';
}

export function listErrorNotice(error: Error): ListNotice {
  if (error instanceof AgentError && error.errorName === 'InvalidScopeError') {
    const data = error.data as { reason?: unknown } | undefined;
    const reason = typeof data?.reason === 'string' ? data.reason : error.message;
    const sentence = /[.!?]$/.test(reason) ? reason : `${reason}.`;
    return {
      title: 'No records can be shown',
      message: `Your team's scope cannot be applied: ${sentence} An administrator of the project can correct it in Settings › Teams.`,
      color: 'orange',
    };
  }
  if (error instanceof AgentError && error.status === 403) {
    return { title: 'Not allowed', message: error.message, color: 'red' };
  }
  return { title: 'The agent answered with an error', message: error.message, color: 'red' };
}
