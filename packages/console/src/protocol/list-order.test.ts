import { describe, expect, it } from 'vitest';
import {
  AgentError,
  clickedSort,
  effectiveSort,
  headerSort,
  listErrorNotice,
  type SchemaCollection,
} from './index';

const customers: SchemaCollection = {
  name: 'customers',
  fields: [
    { field: 'id', type: 'Number', isPrimaryKey: true, isSortable: true },
    { field: 'name', type: 'String', isSortable: true },
  ],
};

const stock: SchemaCollection = {
  name: 'stock',
  fields: [
    { field: 'warehouse', type: 'String', isPrimaryKey: true, isSortable: true },
    { field: 'sku', type: 'String', isPrimaryKey: true, isSortable: true },
    { field: 'quantity', type: 'Number', isSortable: true },
  ],
};

describe('the order a list header shows', () => {
  it('marks the primary key ascending when the view has no sort (the agent orders by it)', () => {
    expect(effectiveSort(customers, undefined)).toBe('id');
    expect(headerSort(customers, undefined, 'id')).toBe('ascending');
    expect(headerSort(customers, undefined, 'name')).toBe('none');
  });

  it('marks every column of a composite key', () => {
    expect(effectiveSort(stock, undefined)).toBe('warehouse,sku');
    expect(['warehouse', 'sku', 'quantity'].map((f) => headerSort(stock, undefined, f))).toEqual([
      'ascending',
      'ascending',
      'none',
    ]);
  });

  it("follows the view's sort when it has one", () => {
    expect(headerSort(customers, '-name', 'name')).toBe('descending');
    expect(headerSort(customers, '-name', 'id')).toBe('none');
    expect(headerSort(customers, 'name', 'name')).toBe('ascending');
  });

  it('marks nothing for a key that cannot be sorted', () => {
    const unsortable: SchemaCollection = {
      name: 'events',
      fields: [{ field: 'id', type: 'String', isPrimaryKey: true, isSortable: false }],
    };
    expect(effectiveSort(unsortable, undefined)).toBeUndefined();
    expect(headerSort(unsortable, undefined, 'id')).toBe('none');
  });

  it('turns the shown order around on a click: implicit ascending → descending → implicit', () => {
    expect(clickedSort(customers, undefined, 'id')).toBe('-id');
    expect(clickedSort(customers, '-id', 'id')).toBeUndefined();
    expect(clickedSort(customers, undefined, 'name')).toBe('name');
    expect(clickedSort(customers, 'name', 'name')).toBe('-name');
  });
});

describe('the notice of a list the agent refused', () => {
  it("says that the team's scope cannot be applied, with the agent's reason", () => {
    const error = new AgentError(
      422,
      "The scope of your team on 'customers' cannot be applied: The column is not filterable.",
      'InvalidScopeError',
      { collection: 'customers', reason: 'The column is not filterable.' },
    );
    expect(listErrorNotice(error)).toEqual({
      title: 'No records can be shown',
      message:
        "Your team's scope cannot be applied: The column is not filterable. An administrator of the project can correct it in Settings › Teams.",
      color: 'orange',
    });
  });

  it('says an invalid filter in words, keeping the agent text', () => {
    const wire =
      'Invalid filters (The given value is out of range for "orders.id": 1e+23. Expects an integer from -2147483648 to 2147483647.)';
    expect(listErrorNotice(new AgentError(400, wire, 'ValidationError'))).toMatchObject({
      message: expect.stringContaining('That id is too large'),
      technical: wire,
    });
  });

  it('says that the agent does not apply a Console segment, and only for one', () => {
    const refused = new AgentError(400, 'Invalid segment: "Late (team)"', 'ValidationError');
    expect(listErrorNotice(refused, { consoleSegment: 'Late (team)' })).toEqual({
      title: 'This agent does not apply Console segments',
      message:
        '“Late (team)” was built in the Console for your team, and this agent applies only the segments defined in its code. Its filter can be used instead.',
      technical: 'Invalid segment: "Late (team)"',
      color: 'orange',
      consoleSegment: 'Late (team)',
    });
    // A segment of the schema the agent refuses is the agent's own answer.
    expect(listErrorNotice(refused)).toMatchObject({
      title: 'The agent answered with an error',
      color: 'red',
    });
    // Another refusal of a list on a Console segment is not about the segment.
    expect(
      listErrorNotice(new AgentError(403, 'No browse right', 'ForbiddenError'), {
        consoleSegment: 'Late (team)',
      }),
    ).toMatchObject({ title: 'Not allowed' });
  });

  it('keeps the other errors as they were', () => {
    expect(listErrorNotice(new AgentError(403, 'No browse right', 'ForbiddenError'))).toEqual({
      title: 'Not allowed',
      message: 'No browse right',
      color: 'red',
    });
    expect(listErrorNotice(new AgentError(400, 'Invalid sort: x', 'ValidationError'))).toEqual({
      title: 'The agent answered with an error',
      message: 'Invalid sort: x.',
      technical: 'Invalid sort: x',
      color: 'red',
    });
  });
});
