/**
 * The project's members by id (`GET /v1/project/{p}/member-suggestions`, docs/public-api.md §8),
 * to name who changed a record or has it open, and to suggest `@` mentions.
 */
import type { MemberSuggestion } from '@canopy/platform-protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { platformJson, usePlatformPaths } from '../../platform-calls';

/** Members whose name, a word of it, or email starts with `prefix` ('' for the first 100). */
export function useMemberSuggestions(prefix: string, enabled = true) {
  const paths = usePlatformPaths();
  return useQuery({
    queryKey: ['members', paths.project, prefix.toLowerCase()],
    queryFn: async () =>
      (
        await platformJson<{ data: MemberSuggestion[] }>(
          `${paths.project}/member-suggestions?${new URLSearchParams({ prefix, limit: prefix ? '8' : '100' })}`,
        )
      ).data,
    enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** `id → member` of the project (its first 100 members by name). */
export function useMembers(): ReadonlyMap<number, MemberSuggestion> {
  const members = useMemberSuggestions('');
  return new Map((members.data ?? []).map((member) => [member.id, member]));
}

/** Initials of a member for an avatar ("Ada Lovelace" → "AL"). */
export function initialsOf(member: { name: string; email: string } | undefined): string {
  if (!member) return '?';
  const words = member.name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length ? words.slice(0, 2).map((word) => word[0]) : [member.email[0]];
  return letters.join('').toUpperCase();
}
