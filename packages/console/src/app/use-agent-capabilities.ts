/**
 * What the workspace's agent supports (`POST /_internal/capabilities`, agent protocol §11): asked
 * once per workspace; `{}` until it answers or when it fails (every optional feature then off).
 */
import { useQuery } from '@tanstack/react-query';
import { useSession } from './session';

export function useAgentCapabilities(): Record<string, unknown> {
  return useAgentCapabilitiesState().capabilities;
}

/** The capabilities, and whether the agent has answered (or failed: `{}` is then final). */
export function useAgentCapabilitiesState(): {
  capabilities: Record<string, unknown>;
  settled: boolean;
} {
  const { client, workspace } = useSession();
  const capabilities = useQuery({
    queryKey: ['capabilities', workspace.id],
    queryFn: () => client.capabilities(),
    staleTime: Infinity,
    retry: false,
  });
  return { capabilities: capabilities.data ?? {}, settled: !capabilities.isPending };
}
