import type { CollectionCustomizer } from '@canopy/agent-core';

const SUPPLIERS = [
  'Atelier Nord',
  'Bois & Co',
  'Ceramica Sud',
  'Deco Factory',
  'Eclairage Plus',
  'Filature Ouest',
  'Granite Works',
  'Hêtre Massif',
  'Indigo Textiles',
  'Jute Traders',
];

/**
 * Products: sorting replaced and disabled, an operator replaced and one emulated, a computed field
 * through a relation, an action whose dropdown searches suppliers as the user types, and a
 * global action whose form has a field of each of the 14 types.
 */
export function customizeProducts(products: CollectionCustomizer): void {
  products
    .setFieldCurrency('price', 'EUR')
    .addField('label', {
      columnType: 'String',
      dependencies: ['name', 'sku'],
      getValues: (records) => records.map((r) => `${r.name} (${r.sku})`),
    })
    // Sorting by label means sorting by name: replace it rather than sorting in memory.
    .replaceFieldSorting('label', [{ field: 'name', ascending: true }])
    .disableFieldSorting('sku')
    // "label contains x" becomes a native condition on the name or the SKU.
    .replaceFieldOperator('label', 'Contains', (value) => ({
      aggregator: 'Or',
      conditions: [
        { field: 'name', operator: 'Contains', value },
        { field: 'sku', operator: 'Contains', value },
      ],
    }))
    .emulateFieldOperator('label', 'StartsWith')
    .addAction('Plan a promotion', {
      scope: 'Global',
      description: 'Schedules a promotion of the shop.',
      submitButtonLabel: 'Schedule',
      // One field of each type, so that the console shows every input; the HTML result says what
      // the agent received, typed.
      form: [
        {
          label: 'Title',
          type: 'String',
          isRequired: true,
          description: 'Shown on the banner and in the e-mails.',
        },
        {
          label: 'Discount',
          type: 'Number',
          widget: 'NumberInput',
          min: 0,
          max: 100,
          defaultValue: 10,
          description: 'In percent, from 0 to 100.',
        },
        { label: 'Active', type: 'Boolean', defaultValue: true },
        { label: 'Starts at', type: 'Date', defaultValue: '2026-12-01T08:00:00.000Z' },
        { label: 'Ends on', type: 'Dateonly', defaultValue: '2026-12-24' },
        { label: 'Daily start', type: 'Time' },
        { label: 'Channel', type: 'Enum', enumValues: ['banner', 'email'], isRequired: true },
        { label: 'Audiences', type: 'EnumList', enumValues: ['new', 'returning', 'vip'] },
        {
          label: 'Banner image',
          type: 'File',
          if: (context) => context.formValues.Channel === 'banner',
        },
        { label: 'Attachments', type: 'FileList' },
        { label: 'Rules', type: 'Json', defaultValue: { minimumTotal: 50 } },
        { label: 'Featured customer', type: 'Collection', collectionName: 'customers' },
        { label: 'Product ids', type: 'NumberList' },
        { label: 'Keywords', type: 'StringList' },
        {
          label: 'Supplier',
          type: 'String',
          widget: 'Dropdown',
          search: 'static',
          options: SUPPLIERS,
        },
        {
          label: 'Warehouse',
          type: 'String',
          widget: 'Dropdown',
          search: 'disabled',
          options: ['Lyon', 'Porto'],
        },
        {
          label: 'Summary',
          type: 'String',
          isReadOnly: true,
          value: (context) =>
            `${String(context.formValues.Title ?? '') || 'Untitled'}: ` +
            `${String(context.formValues.Discount ?? 0)}% off` +
            (context.formValues.Channel ? ` by ${String(context.formValues.Channel)}` : ''),
        },
        {
          label: 'Preview',
          type: 'Json',
          isReadOnly: true,
          value: (context) => ({
            title: context.formValues.Title ?? null,
            discount: context.formValues.Discount ?? null,
          }),
        },
      ],
      execute: (context, resultBuilder) => {
        // The form's bounds are the console's; the agent checks them again.
        const discount = context.formValues.Discount;
        if (typeof discount === 'number' && (discount < 0 || discount > 100)) {
          return resultBuilder.error('The discount is a percentage from 0 to 100.');
        }
        const items = Object.entries(context.formValues).map(
          ([name, value]) =>
            `<li data-field="${escapeHtml(name)}">${escapeHtml(name)}: ${escapeHtml(describe(value))}</li>`,
        );
        return resultBuilder.success(`Promotion “${String(context.formValues.Title)}” scheduled.`, {
          html: `<ul>${items.join('')}</ul>`,
        });
      },
    })
    .addAction('Restock', {
      scope: 'Single',
      form: [
        {
          label: 'Supplier',
          type: 'String',
          widget: 'Dropdown',
          search: 'dynamic',
          isRequired: true,
          options: (_context: unknown, searchValue?: string | null) =>
            SUPPLIERS.filter((name) =>
              name.toLowerCase().includes((searchValue ?? '').toLowerCase()),
            ).map((name) => ({ label: name, value: name })),
        },
        { label: 'Quantity', type: 'Number', isRequired: true, defaultValue: 10 },
      ],
      execute: async (context, resultBuilder) => {
        const quantity = Number(context.formValues.Quantity);
        if (!Number.isInteger(quantity) || quantity <= 0) {
          return resultBuilder.error('The quantity must be a positive whole number.');
        }
        const { stock } = await context.getRecord(['stock']);
        await context.collection.update(context.filter, { stock: Number(stock) + quantity });
        return resultBuilder.success(
          `Ordered ${quantity} from ${String(context.formValues.Supplier)}.`,
        );
      },
    });
}

/** A form value as "<kind> <value>" (files by name and size), for the promotion's summary. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  const file = (item: unknown) =>
    item && typeof item === 'object' && 'buffer' in item && Buffer.isBuffer(item.buffer)
      ? `${String((item as { name?: unknown }).name)} (${item.buffer.length} bytes)`
      : undefined;
  if (file(value)) return `file ${file(value)}`;
  if (Array.isArray(value)) {
    const files = value.map(file);
    if (value.length > 0 && files.every(Boolean)) return `files ${files.join(', ')}`;
    return `list ${JSON.stringify(value)}`;
  }
  if (typeof value === 'object') return `object ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

/** Text as HTML text. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
