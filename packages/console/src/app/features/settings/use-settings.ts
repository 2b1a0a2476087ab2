/**
 * The settings screens' data: the management client (as the signed-in user), the project's
 * details (environments, members, roles, teams) and a mutation helper that reports success or the
 * server's refusal and refetches.
 */
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { PlatformError } from '../../../protocol';
import { platform } from '../../platform';
import { useWorkspace } from '../../workspace';
import { ManagementApi } from './management-api';

/** The management API, as the user signed in to the console (its platform access token). */
export function useManagement() {
  const { project } = useWorkspace();
  const client = useMemo(() => new ManagementApi(platform), []);
  return { client, project };
}

const noClientErrorRetry = (count: number, error: Error) =>
  !(error instanceof PlatformError && error.status >= 400 && error.status < 500) && count < 2;

/** `GET /v1/project/{p}`: the whole project as its admins manage it. */
export function useProjectDetails() {
  const { client, project } = useManagement();
  return useQuery({
    queryKey: ['settings', project],
    queryFn: () => client.details(project),
    retry: noClientErrorRetry,
    staleTime: 5_000,
  });
}

export function useTokens() {
  const { client, project } = useManagement();
  return useQuery({
    queryKey: ['settings', project, 'tokens'],
    queryFn: () => client.listTokens(project),
    retry: noClientErrorRetry,
  });
}

/**
 * A management call: on success the settings refetch and `success` is shown; a refusal shows the
 * server's message (the form stays as it was).
 */
export function useManagementMutation<I, O>(
  call: (client: ManagementApi, project: string, input: I) => Promise<O>,
  success?: string | ((output: O, input: I) => string),
) {
  const { client, project } = useManagement();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => call(client, project, input),
    onSuccess: async (output, input) => {
      await queryClient.invalidateQueries({ queryKey: ['settings', project] });
      if (success) {
        notifications.show({
          color: 'teal',
          message: typeof success === 'string' ? success : success(output, input),
        });
      }
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'The platform refused the change',
        message: error.message,
      });
    },
  });
}
