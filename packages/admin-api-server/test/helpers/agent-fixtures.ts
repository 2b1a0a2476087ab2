/** One activity log as an agent reports it in a `POST /liana/v1/activity-logs` batch. */
export function reportedActivityLog(
  id: string,
  userId: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    createdAt: '2026-11-21T10:00:00.000Z',
    type: 'write',
    action: 'update',
    label: 'updated',
    userId,
    renderingId: null,
    collectionName: 'orders',
    recordIds: ['7'],
    ...overrides,
  };
}
