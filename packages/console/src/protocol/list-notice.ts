/**
 * What the list area says when the agent refuses a list: a team scope the agent cannot apply
 * (`InvalidScopeError`, 422) is the project's configuration, not the user's doing, and is said so
 * in one sentence; a 403 is a missing right; anything else is the agent's own message.
 */
import { AgentError } from './client';
import { errorText } from './error-text';

export interface ListNotice {
  title: string;
  message: string;
  /** The agent's own words, when `message` says them differently. */
  technical?: string;
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
  const { message, technical, reference } = errorText(error);
  return {
    title: 'The agent answered with an error',
    message,
    technical: technical && reference ? `${technical}\nReference ${reference}` : technical,
    color: 'red',
  };
}
