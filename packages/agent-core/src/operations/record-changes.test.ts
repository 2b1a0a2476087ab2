import type { RecordChangedEvent } from '@canopy/platform-protocol';
import type { AgentServices } from '../platform/agent-services';
import type { Collection } from '../toolkit/interfaces/collection';
import { Filter } from '../toolkit/query/filter';
import type { OperationCaller, OperationContext } from './context';
import { idsToReport, reportRecordChanges } from './record-changes';

const who = {
  claims: { id: 7 },
  caller: { id: 7, timezone: 'UTC', requestId: 'req-1' },
} as unknown as OperationCaller;

function contextWith(recorded?: RecordChangedEvent[]): OperationContext {
  const services = {
    ...(recorded
      ? { recordChanges: { record: (change: RecordChangedEvent) => recorded.push(change) } }
      : {}),
  } as unknown as AgentServices;
  return {
    services,
    permissions: undefined,
    collections: new Map(),
  } as unknown as OperationContext;
}

describe('reportRecordChanges', () => {
  it('queues one change per record, with the field names and the request id', () => {
    const recorded: RecordChangedEvent[] = [];
    reportRecordChanges(contextWith(recorded), who, 'orders', 'update', ['1', '2'], ['status']);
    expect(recorded).toEqual([
      {
        collection: 'orders',
        recordId: '1',
        userId: 7,
        operation: 'update',
        fields: ['status'],
        correlationId: 'req-1',
      },
      {
        collection: 'orders',
        recordId: '2',
        userId: 7,
        operation: 'update',
        fields: ['status'],
        correlationId: 'req-1',
      },
    ]);
  });

  it('sends at most 500 field names and no correlation id when the caller has none', () => {
    const recorded: RecordChangedEvent[] = [];
    const fields = Array.from({ length: 600 }, (_, index) => `f${index}`);
    const anonymous = { ...who, caller: { ...who.caller, requestId: undefined } };
    reportRecordChanges(contextWith(recorded), anonymous, 'orders', 'create', ['1'], fields);
    expect(recorded[0]!.fields).toHaveLength(500);
    expect(recorded[0]).not.toHaveProperty('correlationId');
  });

  it('does nothing without a platform, and reads no ids before a delete', async () => {
    const list = jest.fn();
    const collection = { list } as unknown as Collection;
    expect(() => reportRecordChanges(contextWith(), who, 'orders', 'delete', ['1'])).not.toThrow();
    expect(await idsToReport(contextWith(), who, collection, new Filter())).toEqual([]);
    expect(list).not.toHaveBeenCalled();
  });
});

describe('idsToReport', () => {
  it('reports nothing, and does not fail the delete, when reading the ids fails', async () => {
    const lines: string[] = [];
    const context = contextWith([]);
    (context.services as { logger: unknown }).logger = (level: string, message: string) =>
      lines.push(`${level} ${message}`);
    const collection = {
      name: 'orders',
      schema: { fields: { id: { type: 'Column', isPrimaryKey: true, columnType: 'Number' } } },
      list: jest.fn().mockRejectedValue(new Error('password=hunter2')),
    } as unknown as Collection;
    expect(await idsToReport(context, who, collection, new Filter())).toEqual([]);
    expect(lines).toEqual([
      "Debug Reading the ids to report before a write of 'orders' failed; not reported.",
    ]);
  });
});
