/**
 * The platform routes the insights screens call (dashboard, notes, activity and admin logs), with
 * the user's own platform token: the console's access token of the platform sign-in
 * (`currentPlatformToken()`, kept in memory and this tab's session storage).
 */
import { useParams } from 'react-router';
import { currentPlatformToken } from '../../platform';
import { useWorkspace } from '../../workspace';

export class PlatformCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformCallError';
  }
}

/** The signed-in user's platform token of this tab (the console's access token). */
export function platformAccessToken(): string | undefined {
  return currentPlatformToken()?.accessToken;
}

async function failure(response: Response): Promise<PlatformCallError> {
  const text = await response.text().catch(() => '');
  let message = text || `The platform answered ${response.status}.`;
  try {
    const body = JSON.parse(text) as { message?: string; errors?: { detail?: string }[] };
    message = body.message ?? body.errors?.[0]?.detail ?? message;
  } catch {
    // Not JSON: keep the text.
  }
  if (response.status === 401) {
    message = `Sign in to the platform again to see this (${message})`;
  }
  return new PlatformCallError(response.status, message);
}

/** `fetch` on the platform (same origin) with the user's token; throws the platform's message. */
export async function platformFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const token = platformAccessToken();
  const response = await fetch(path, {
    ...init,
    headers: {
      accept: 'application/json',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  if (!response.ok) throw await failure(response);
  return response;
}

export async function platformJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await platformFetch(path, init);
  return (response.status === 204 ? null : await response.json()) as T;
}

/** `/v1/project/:p/environment/:e` and `/v1/project/:p` of the current workspace. */
export function usePlatformPaths() {
  const params = useParams();
  const workspace = useWorkspace();
  const project = encodeURIComponent(params.project ?? workspace.project);
  const environment = encodeURIComponent(params.environment ?? workspace.environment.name);
  return {
    project: `/v1/project/${project}`,
    environment: `/v1/project/${project}/environment/${environment}`,
  };
}
