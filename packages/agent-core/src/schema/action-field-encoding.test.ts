import { ShopDataSource } from './shop-fixture';
import { encodeActionField } from './action-field-encoding';
import { encodeForm } from './action-schema-generator';

const shop = new ShopDataSource();

describe('encodeActionField', () => {
  it('encodes list types, collection references and composite-id values', () => {
    expect(encodeActionField({ type: 'NumberList', id: 'n', label: 'N' }, shop)).toEqual({
      field: 'n',
      label: 'N',
      isRequired: false,
      isReadOnly: false,
      type: ['Number'],
    });
    expect(
      encodeActionField(
        { type: 'Collection', id: 'c', label: 'Customer', collectionName: 'customers', value: [1] },
        shop,
      ),
    ).toEqual({
      field: 'c',
      label: 'Customer',
      isRequired: false,
      isReadOnly: false,
      type: 'Number',
      reference: 'customers.id',
      defaultValue: '1',
    });
    expect(
      encodeActionField(
        { type: 'EnumList', id: 'e', label: 'E', enumValues: ['a'], widget: 'CheckboxGroup' },
        shop,
      ),
    ).toMatchObject({ type: ['Enum'], enums: ['a'], widgetEdit: { name: 'checkboxes' } });
  });

  it.each([
    [
      {
        widget: 'Dropdown',
        search: 'dynamic',
        options: [{ label: 'A', value: 'a' }],
        placeholder: 'p',
      },
      {
        name: 'dropdown',
        parameters: {
          placeholder: 'p',
          isSearchable: true,
          searchType: 'dynamic',
          static: { options: [{ label: 'A', value: 'a' }] },
        },
      },
    ],
    [
      { widget: 'CurrencyInput', currency: 'eur', base: 'Cent', min: 0 },
      {
        name: 'price editor',
        parameters: {
          placeholder: null,
          min: 0,
          max: null,
          step: null,
          currency: 'EUR',
          base: 'Cents',
        },
      },
    ],
    [
      { widget: 'FilePicker', extensions: ['png'], maxSizeMb: 2, maxCount: 3 },
      {
        name: 'file picker',
        parameters: {
          prefix: null,
          filesExtensions: ['png'],
          filesSizeLimit: 2,
          filesCountLimit: 3,
        },
      },
    ],
    [{ widget: 'Checkbox' }, { name: 'boolean editor', parameters: {} }],
  ])('encodes widget %j', (widget, widgetEdit) => {
    expect(
      encodeActionField({ type: 'String', id: 'w', label: 'W', ...widget } as never, shop)
        .widgetEdit,
    ).toEqual(widgetEdit);
  });

  it('never gives Enum fields a widget', () => {
    expect(
      encodeActionField(
        { type: 'Enum', id: 'e', label: 'E', enumValues: [], widget: 'RadioGroup' },
        shop,
      ),
    ).not.toHaveProperty('widgetEdit');
  });
});

describe('encodeForm', () => {
  it('flattens fields and keeps the layout when the form uses layout elements', () => {
    const form = encodeForm(
      [
        {
          type: 'Layout',
          component: 'Page',
          nextButtonLabel: 'Next',
          elements: [
            { type: 'String', id: 'a', label: 'A' },
            { type: 'Layout', component: 'Separator' },
            {
              type: 'Layout',
              component: 'Row',
              fields: [
                { type: 'Number', id: 'b', label: 'B' },
                { type: 'Number', id: 'c', label: 'C' },
              ],
            },
            { type: 'Layout', component: 'HtmlBlock', content: '<b>hi</b>' },
          ],
        },
      ],
      shop.getCollection('orders'),
    );
    expect(form.fields.map((field) => field.field)).toEqual(['a', 'b', 'c']);
    expect(form.layout).toEqual([
      {
        component: 'page',
        nextButtonLabel: 'Next',
        elements: [
          { component: 'input', fieldId: 'a' },
          { component: 'separator' },
          {
            component: 'row',
            fields: [
              { component: 'input', fieldId: 'b' },
              { component: 'input', fieldId: 'c' },
            ],
          },
          { component: 'htmlBlock', content: '<b>hi</b>' },
        ],
      },
    ]);
    expect(
      encodeForm([{ type: 'String', id: 'a', label: 'A' }], shop.getCollection('orders')),
    ).not.toHaveProperty('layout');
  });
});
