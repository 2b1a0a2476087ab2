/**
 * What the list area says when the agent refuses a list: a team scope the agent cannot apply
 * (`InvalidScopeError`, 422) is the project's configuration, not the user's doing, and is said so
 * in one sentence; so is a segment built in the Console that the agent does not know (an agent
 * that applies only the segments of its code, as the reference agent: `400 Invalid segment`,
 * docs/agent-http-protocol.md §6.7); a 403 is a missing right; anything else is the agent's own
 * message.
 */
import { AgentError } from './client';
import { errorText } from './error-text';

export interface ListNotice {
  title: string;
  message: string;
  /** The agent's own words, when `message` says them differently. */
  technical?: string;
  color: 'red' | 'orange';
  /** Set when the refused segment is a Console one: its filter may be used instead. */
  consoleSegment?: string;
}

export function listErrorNotice(
  error: Error,
  /** The list's segment when it is one built in the Console for the team (not in the schema). */
  context: { consoleSegment?: string } = {},
): ListNotice {
  const segment = context.consoleSegment;
  if (
    segment !== undefined &&
    error instanceof AgentError &&
    error.status === 400 &&
    error.message.startsWith('Invalid segment')
  ) {
    return {
      title: 'This agent does not apply Console segments',
      message: `“${segment}” was built in the Console for your team, and this agent applies only the segments defined in its code. Its filter can be used instead.`,
      technical: error.message,
      color: 'orange',
      consoleSegment: segment,
    };
  }
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
