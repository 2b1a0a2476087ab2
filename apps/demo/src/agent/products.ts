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
 * through a relation, and an action whose dropdown searches suppliers as the user types.
 */
export function customizeProducts(products: CollectionCustomizer): void {
  products
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
