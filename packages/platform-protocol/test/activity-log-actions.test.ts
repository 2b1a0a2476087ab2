import { ACTIVITY_LOG_ACTIONS, AGENT_ACTIVITY_LOG_ACTIONS, isActivityLogAction } from '../src';

describe('activity-log actions', () => {
  it('lists each action of the public API once', () => {
    expect(new Set(ACTIVITY_LOG_ACTIONS).size).toBe(ACTIVITY_LOG_ACTIONS.length);
    expect(ACTIVITY_LOG_ACTIONS).toEqual(
      expect.arrayContaining(['index', 'read', 'createNote', 'resumeWorkflow']),
    );
  });

  it('recognizes exactly the listed actions', () => {
    expect(isActivityLogAction('listRelatedData')).toBe(true);
    expect(isActivityLogAction('ListRelatedData')).toBe(false);
    expect(isActivityLogAction('drop')).toBe(false);
    expect(isActivityLogAction(undefined)).toBe(false);
    expect(isActivityLogAction(['read'])).toBe(false);
  });

  it('names only listed actions among those an agent reports', () => {
    expect(AGENT_ACTIVITY_LOG_ACTIONS.filter((action) => !isActivityLogAction(action))).toEqual([]);
  });
});
