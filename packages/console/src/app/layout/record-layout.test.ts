import { describe, expect, it } from 'vitest';
import { applyRecordPage, pageReadOnly } from './record-layout';
import {
  clearRecordPage,
  editedTabs,
  moveItem,
  setRecordPage,
  setSectionFields,
  unplacedFields,
} from './record-layout-edit';

const fields = ['id', 'status', 'total', 'customer'];
const related = ['payments', 'lines'];
const summary = (tabs: ReturnType<typeof applyRecordPage>) =>
  tabs.map((tab) =>
    tab.kind === 'fields'
      ? `${tab.key}:${tab.title}[${tab.sections.map((s) => s.fields.join(',')).join('|')}]`
      : `${tab.key}:>${tab.related}`,
  );

describe('applyRecordPage', () => {
  it('is today’s page without a layout: every field in Details, then every relation', () => {
    expect(summary(applyRecordPage(undefined, fields, related))).toEqual([
      'details:Details[id,status,total,customer]',
      'payments:>payments',
      'lines:>lines',
    ]);
    expect(summary(applyRecordPage({ readOnlyFields: ['total'] }, fields, related))).toHaveLength(
      3,
    );
  });

  it('puts a related tab first and shows only the relations and fields the layout names', () => {
    const tabs = applyRecordPage(
      {
        tabs: [
          { related: 'payments', title: 'Money in' },
          { title: 'Order', sections: [{ title: 'Main', fields: ['status', 'id'] }] },
        ],
      },
      fields,
      related,
    );
    expect(summary(tabs)).toEqual(['details:>payments', 'fields-1:Order[status,id]']);
    expect(tabs[0]).toMatchObject({ title: 'Money in' });
  });

  it('keeps every relation when the layout names none, after Details and the tabs', () => {
    const tabs = applyRecordPage(
      {
        sections: [{ fields: ['total'] }],
        tabs: [{ title: 'More', sections: [{ fields: ['customer'] }] }],
      },
      fields,
      related,
    );
    expect(summary(tabs)).toEqual([
      'details:Details[total]',
      'fields-1:More[customer]',
      'payments:>payments',
      'lines:>lines',
    ]);
  });

  it('leaves out what the user may not see, and falls back to today’s page when nothing is left', () => {
    const page = {
      tabs: [
        { title: 'Secret', sections: [{ fields: ['margin'] }] },
        { related: 'audits' },
        { related: 'lines' },
      ],
      relatedTabs: ['lines', 'payments'],
    };
    expect(summary(applyRecordPage(page, fields, related))).toEqual([
      'details:>lines',
      'payments:>payments',
    ]);
    expect(summary(applyRecordPage({ tabs: [{ related: 'audits' }] }, fields, related))[0]).toMatch(
      /^details:Details/,
    );
    expect(pageReadOnly({ readOnlyFields: ['total'] })).toEqual(['total']);
  });
});

describe('record page edits', () => {
  it('starts from today’s page and writes tabs back', () => {
    const tabs = editedTabs(undefined, fields, related);
    expect(tabs).toEqual([
      { title: 'Details', sections: [{ fields }] },
      { related: 'payments' },
      { related: 'lines' },
    ]);
    const moved = moveItem(tabs, 1, -1);
    const layout = setRecordPage({ sidebar: { items: [] } }, 'orders', moved, ['total']);
    expect(layout.sidebar).toEqual({ items: [] });
    expect(layout.collections!.orders!.recordPage).toEqual({
      tabs: [{ related: 'payments' }, tabs[0], { related: 'lines' }],
      readOnlyFields: ['total'],
    });
    expect(clearRecordPage(layout, 'orders').collections!.orders).toEqual({});
  });

  it('reads a hand-written page as tabs, keeping empty sections being filled', () => {
    const tabs = editedTabs(
      {
        sections: [{ fields: ['id', 'margin'] }],
        tabs: [{ title: 'New', sections: [{ fields: [] }] }],
      },
      fields,
      related,
    );
    expect(tabs).toEqual([
      { title: 'Details', sections: [{ fields: ['id'] }] },
      { title: 'New', sections: [{ fields: [] }] },
      { related: 'payments' },
      { related: 'lines' },
    ]);
    expect(unplacedFields(tabs, fields)).toEqual(['status', 'total', 'customer']);
  });

  it('moves a field picked in one section out of the section it was in', () => {
    const tabs = [
      { title: 'A', sections: [{ fields: ['id', 'status'] }, { fields: ['total'] }] },
      { related: 'payments' },
      { title: 'B', sections: [{ fields: ['customer'] }] },
    ];
    expect(setSectionFields(tabs, 2, 0, ['customer', 'status'])).toEqual([
      { title: 'A', sections: [{ fields: ['id'] }, { fields: ['total'] }] },
      { related: 'payments' },
      { title: 'B', sections: [{ fields: ['customer', 'status'] }] },
    ]);
  });
});
