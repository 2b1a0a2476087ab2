import { CliError } from '../cli-error';
import { refusedSession, type Session } from '../auth/session';
import { platformRequest, unexpectedAnswer } from './http';

/** The project and environment an env secret belongs to. */
export interface EnvironmentInfo {
  environment: { id: string; name: string };
  project: { id: string; name: string };
}

/**
 * Resolves the environment and project of `envSecret` with `GET /liana/environment`
 * (platform protocol §10, §15), sent with the env secret and the developer's bearer token so the
 * platform can check the developer belongs to the project.
 */
export async function lookUpEnvironment(
  serverUrl: string,
  envSecret: string,
  session: Session,
): Promise<EnvironmentInfo> {
  const response = await platformRequest(`${serverUrl}/liana/environment`, {
    headers: {
      'forest-secret-key': envSecret,
      authorization: `Bearer ${session.accessToken}`,
    },
  });
  if (response.status === 401) throw await refusedSession(serverUrl, session);
  if (response.status === 403 || response.status === 404) {
    throw new CliError(
      'UNKNOWN_ENV_SECRET',
      response.status === 404
        ? 'No environment of the Canopy platform has this env secret; copy it again from the environment settings.'
        : 'You are not a member of the project of this env secret; ask an admin of the project to invite you.',
    );
  }
  if (response.status !== 200) throw unexpectedAnswer('look up the environment', response);
  const parsed = parseEnvironment(response.body);
  if (!parsed) {
    throw new CliError(
      'PLATFORM_ERROR',
      'The Canopy platform described the environment without its name and project; update the platform server.',
    );
  }
  return parsed;
}

function parseEnvironment(body: unknown): EnvironmentInfo | null {
  const document = (body ?? {}) as {
    data?: {
      id?: unknown;
      attributes?: { name?: unknown };
      relationships?: { project?: { data?: { id?: unknown } } };
    };
    included?: Array<{ type?: unknown; id?: unknown; attributes?: { name?: unknown } }>;
  };
  const data = document.data;
  const projectId = data?.relationships?.project?.data?.id;
  const project = document.included?.find(
    (resource) => resource.type === 'projects' && resource.id === projectId,
  );
  if (
    typeof data?.id !== 'string' ||
    typeof data.attributes?.name !== 'string' ||
    typeof projectId !== 'string' ||
    typeof project?.attributes?.name !== 'string'
  ) {
    return null;
  }
  return {
    environment: { id: data.id, name: data.attributes.name },
    project: { id: projectId, name: project.attributes.name },
  };
}
