/**
 * The platform routes the insights screens call (dashboard, notes, activity and admin logs),
 * through the Console's one platform client (`platform` in platform.ts: the user's token, the
 * 401 policy, the error answers as `PlatformError`).
 */
import { useParams } from 'react-router';
import type { PlatformInit } from '../protocol';
import { platform } from './platform';
import { useWorkspace } from './workspace';

/** `path` on the platform with the user's token; throws a `PlatformError` on an error answer. */
export function platformFetch(path: string, init?: PlatformInit): Promise<Response> {
  return platform.send(path, init);
}

/** Like `platformFetch`, and reads the JSON answer (`undefined` for a 204). */
export function platformJson<T>(path: string, init?: PlatformInit): Promise<T> {
  return platform.json<T>(path, init);
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
