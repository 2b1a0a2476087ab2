import {
  UnprocessableError,
  type CollectionCustomizer,
  type RelaxedCollection,
} from '@canopy/agent-core';
import { flattenRelation } from '@canopy/plugin-flattener';

/** The webhook "Notify warehouse" answers with (the Console's CSP must allow its origin). */
export const WAREHOUSE_WEBHOOK = 'https://warehouse.example.com/hooks/orders';

/** An amount in the shop's currency as the Console writes it in its default locale: `€1,677.49`. */
const EUROS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });

/**
 * Orders: a computed total through the order lines, fields imported and flattened from the
 * customer, segments, hooks, and actions of every scope with dynamic forms and every result type.
 */
export function customizeOrders(orders: CollectionCustomizer): void {
  orders
    .addOneToManyRelation('lines', 'order_lines', { originKey: 'order_id' })
    .addField('customerName', {
      columnType: 'String',
      dependencies: ['customer:first_name', 'customer:last_name'],
      getValues: (records) =>
        records.map((r) => {
          const customer = r.customer as { first_name?: string; last_name?: string } | null;
          return customer ? `${customer.first_name} ${customer.last_name}` : null;
        }),
    })
    .addField('total', {
      columnType: 'Number',
      // The shop sells in euros: the Console shows the totals as amounts in EUR.
      currency: 'EUR',
      dependencies: ['id'],
      getValues: (records, context) =>
        orderTotals(
          context,
          records.map((r) => r.id),
        ),
    })
    .importField('customerEmail', { path: 'customer:email', readonly: true })
    .use(flattenRelation, {
      relationName: 'customer',
      include: ['last_name', 'tier'],
      readonly: true,
    })
    .addSegment('Pending', { field: 'status', operator: 'Equal', value: 'pending' })
    .addSegment('To ship', async () => ({
      aggregator: 'And',
      conditions: [
        { field: 'status', operator: 'Equal', value: 'paid' },
        { field: 'shipped_on', operator: 'Missing' },
      ],
    }))
    .addHook('Before', 'Create', (context) => {
      for (const order of context.data) {
        if (order.status && !['pending', 'paid'].includes(String(order.status))) {
          context.throwValidationError('A new order is pending or paid.');
        }
      }
    })
    .addHook('Before', 'Delete', async (context) => {
      const shipped = await context.collection.list(
        {
          conditionTree: {
            aggregator: 'And',
            conditions: [
              ...(context.filter.conditionTree
                ? [context.filter.conditionTree.toPlainObject()]
                : []),
              { field: 'status', operator: 'In', value: ['shipped', 'delivered'] },
            ],
          },
          page: { limit: 1 },
        },
        ['id'],
      );
      if (shipped.length > 0) context.throwForbiddenError('Shipped orders cannot be deleted.');
    })
    .addAction('Mark as shipped', {
      scope: 'Bulk',
      execute: async (context, resultBuilder) => {
        await context.collection.update(context.filter, {
          status: 'shipped',
          shipped_on: new Date().toISOString().slice(0, 10),
        });
        const count = (await context.getRecordIds()).length;
        return resultBuilder.success(`${count} orders shipped.`, { invalidated: ['orders'] });
      },
    })
    .addAction('Flag for review', {
      scope: 'Bulk',
      description: 'Puts the selected orders on the review list of a team.',
      submitButtonLabel: 'Flag',
      form: [
        {
          label: 'Reason',
          type: 'Enum',
          enumValues: ['address', 'payment', 'fraud'],
          isRequired: true,
        },
        {
          // Appears once a reason is chosen; its options depend on the reason.
          label: 'Team',
          type: 'String',
          widget: 'Dropdown',
          isRequired: true,
          if: (context) => Boolean(context.formValues.Reason),
          options: (context) =>
            context.formValues.Reason === 'fraud'
              ? ['Risk', 'Legal']
              : ['Customer care', 'Logistics'],
        },
        {
          label: 'Note',
          type: 'String',
          widget: 'TextArea',
          if: (context) => Boolean(context.formValues.Reason),
        },
      ],
      execute: async (context, resultBuilder) => {
        const count = (await context.getRecordIds()).length;
        return resultBuilder.success(
          `${count} orders flagged for ${String(context.formValues.Team)}.`,
          {
            html: `<p>Reason: <strong>${escapeHtml(String(context.formValues.Reason))}</strong></p>`,
          },
        );
      },
    })
    .addAction('Refund order', {
      scope: 'Single',
      form: [
        {
          label: 'Reason',
          type: 'Enum',
          enumValues: ['damaged', 'late', 'other'],
          isRequired: true,
        },
        {
          label: 'Details',
          type: 'String',
          if: (context) => context.formValues.Reason === 'other',
          isRequired: true,
        },
        {
          label: 'Amount',
          type: 'Number',
          // Shown in euros, as the order's amounts are (the agent reads the number of euros).
          widget: 'CurrencyInput',
          currency: 'EUR',
          isRequired: true,
          defaultValue: async (context) => {
            const id = await context.getRecordId();
            // Loading the form of a refunded order fails with the reason: nothing can be sent.
            const { status } = await context.getRecord(['status']);
            if (status === 'refunded') throw new UnprocessableError(alreadyRefunded(id));
            const [total] = await orderTotals(context, [id]);
            return total;
          },
        },
      ],
      execute: async (context, resultBuilder) => {
        const { status } = await context.getRecord(['status']);
        if (status === 'refunded') {
          return resultBuilder.error(alreadyRefunded(await context.getRecordId()));
        }
        const amount = Number(context.formValues.Amount);
        if (!(amount > 0)) return resultBuilder.error('The amount must be positive.');
        await context.collection.update(context.filter, { status: 'refunded' });
        return resultBuilder.success('Order refunded', {
          html: `<p>Refunded <strong>${EUROS.format(amount)}</strong>.</p>`,
          invalidated: ['payments'],
        });
      },
    })
    .addAction('Reassign customer', {
      scope: 'Single',
      form: [
        { label: 'Customer', type: 'Collection', collectionName: 'customers', isRequired: true },
      ],
      execute: async (context, resultBuilder) => {
        const [customerId] = context.formValues.Customer as [number];
        await context.collection.update(context.filter, { customer_id: customerId });
        return resultBuilder.success('Customer reassigned');
      },
    })
    .addAction('Notify warehouse', {
      scope: 'Single',
      execute: async (context, resultBuilder) =>
        resultBuilder.webhook(
          WAREHOUSE_WEBHOOK,
          'POST',
          {},
          { orderId: await context.getRecordId() },
        ),
    })
    .addAction('Download invoice', {
      scope: 'Single',
      generateFile: true,
      execute: async (context, resultBuilder) => {
        const id = await context.getRecordId();
        const record = await context.getRecord(['status', 'created_at']);
        return resultBuilder
          .setHeader('X-Invoice-Id', String(id))
          .file(
            `Invoice for order ${id}\nStatus: ${record.status}\nDate: ${record.created_at}\n`,
            `invoice-${id}.txt`,
            'text/plain',
          );
      },
    });
}

/** The totals of the given orders, from their lines, in one query. */
async function orderTotals(
  context: { dataSource: { getCollection(name: string): RelaxedCollection } },
  orderIds: unknown[],
): Promise<number[]> {
  const lines = await context.dataSource
    .getCollection('order_lines')
    .list({ conditionTree: { field: 'order_id', operator: 'In', value: orderIds } }, [
      'order_id',
      'quantity',
      'unit_price',
    ]);
  const totals = new Map<unknown, number>();
  for (const line of lines) {
    const amount = Number(line.quantity) * Number(line.unit_price);
    totals.set(line.order_id, (totals.get(line.order_id) ?? 0) + amount);
  }
  return orderIds.map((id) => Math.round((totals.get(id) ?? 0) * 100) / 100);
}

/** Text as HTML text: the action's HTML result shows what the user typed, never runs it. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function alreadyRefunded(id: unknown): string {
  return `Order #${String(id)} is already refunded; it cannot be refunded again.`;
}
