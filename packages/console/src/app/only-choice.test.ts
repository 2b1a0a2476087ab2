import { describe, expect, it } from 'vitest';
import type { Workspace } from './config';
import { onlyChoice } from './only-choice';

const workspace = (
  id: string,
  teams: number[],
  agentUrl: string | null = 'http://agent',
): Workspace => ({
  id,
  project: id.split('/')[0]!,
  environment: id.split('/')[1]!,
  agentUrl,
  development: false,
  renderings: teams.map((team) => ({ id: team, name: `Team ${team}` })),
});

describe('onlyChoice', () => {
  it('opens the one environment and team of a user who has no other', () => {
    const only = workspace('Shop/Production', [7]);
    expect(onlyChoice([only])).toEqual({ workspace: only, renderingId: 7 });
  });

  it('asks when there is a second environment or team, no team, or no agent address', () => {
    expect(onlyChoice([workspace('Shop/Production', [7]), workspace('Shop/Staging', [7])])).toBe(
      undefined,
    );
    expect(onlyChoice([workspace('Shop/Production', [7, 8])])).toBe(undefined);
    expect(onlyChoice([workspace('Shop/Production', [])])).toBe(undefined);
    expect(onlyChoice([workspace('Shop/Production', [7], null)])).toBe(undefined);
    expect(onlyChoice([])).toBe(undefined);
  });
});
