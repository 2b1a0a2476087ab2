import { describe, expect, it } from 'vitest';
import { applyForm, editedForm, setForm } from './form-layout';

const fields = ['status', 'customer', 'shippedOn', 'total'];

describe('form layout', () => {
  it('is today’s form without a layout, and nothing read-only on create', () => {
    expect(applyForm(undefined, 'create', fields, [])).toEqual({
      sections: [{ fields }],
      readOnly: new Set(),
    });
    const own = { forms: { create: { sections: [], readOnlyInEdit: ['status'] } } };
    expect(applyForm(own, 'create', fields, []).readOnly.size).toBe(0);
  });

  it('orders fields in sections, leaves out the unnamed, asks required ones last', () => {
    const own = {
      forms: {
        edit: {
          sections: [
            { title: 'State', fields: ['total', 'status', 'margin'] },
            { title: 'Twice', fields: ['status'] },
          ],
          readOnlyInEdit: ['total'],
        },
      },
      recordPage: { readOnlyFields: ['status'] },
    };
    const form = applyForm(own, 'edit', fields, ['customer']);
    expect(form.sections).toEqual([
      { title: 'State', fields: ['total', 'status'] },
      { fields: ['customer'] },
    ]);
    expect([...form.readOnly].sort()).toEqual(['status', 'total']);
  });

  it('edits one form and keeps the other', () => {
    const layout = setForm(null, 'orders', 'edit', { sections: [{ fields: ['status'] }] });
    const both = setForm(layout, 'orders', 'create', { sections: [{ fields: ['total'] }] });
    expect(both.collections!.orders!.forms).toEqual({
      edit: { sections: [{ fields: ['status'] }] },
      create: { sections: [{ fields: ['total'] }] },
    });
    expect(setForm(both, 'orders', 'edit', undefined).collections!.orders!.forms).toEqual({
      create: { sections: [{ fields: ['total'] }] },
    });
    expect(editedForm(both.collections!.orders, 'create', ['status'])).toEqual({
      sections: [{ fields: [] }],
    });
    expect(editedForm(undefined, 'edit', fields)).toEqual({ sections: [{ fields }] });
  });
});
