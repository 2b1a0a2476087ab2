import type { Agent, RelaxedDataSource } from '@canopy/agent-core';

const monthly = async (dataSource: RelaxedDataSource, status?: string) =>
  dataSource
    .getCollection('orders')
    .aggregate(
      status ? { conditionTree: { field: 'status', operator: 'Equal', value: status } } : null,
      { operation: 'Count', groups: [{ field: 'created_at', operation: 'Month' }] },
    );

/** Data-source charts: one of every result type of the chart result builder. */
export function addShopCharts(agent: Agent): void {
  agent
    .addChart('revenue', async (context, resultBuilder) => {
      const payments = context.dataSource.getCollection('payments');
      const sum = async (from: string, to: string) => {
        const [row] = await payments.aggregate(
          {
            conditionTree: {
              aggregator: 'And',
              conditions: [
                { field: 'paid_at', operator: 'GreaterThan', value: from },
                { field: 'paid_at', operator: 'LessThan', value: to },
              ],
            },
          },
          { operation: 'Sum', field: 'amount' },
        );
        return Math.round(Number(row?.value ?? 0));
      };
      return resultBuilder.value(
        await sum('2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
        await sum('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
      );
    })
    .addChart('paymentMethods', async (context, resultBuilder) => {
      const rows = await context.dataSource
        .getCollection('payments')
        .aggregate(null, { operation: 'Count', groups: [{ field: 'method' }] });
      return resultBuilder.distribution(
        Object.fromEntries(rows.map((row) => [String(row.group.method), Number(row.value)])),
      );
    })
    .addChart('ordersPerMonth', async (context, resultBuilder) => {
      const rows = await monthly(context.dataSource);
      return resultBuilder.timeBased(
        'Month',
        rows.map((row) => ({ date: String(row.group.created_at), value: Number(row.value) })),
      );
    })
    .addChart('ordersPerMonthByStatus', async (context, resultBuilder) => {
      const [delivered, cancelled] = await Promise.all([
        monthly(context.dataSource, 'delivered'),
        monthly(context.dataSource, 'cancelled'),
      ]);
      const dates = [
        ...new Set([...delivered, ...cancelled].map((row) => String(row.group.created_at))),
      ].sort();
      const valueAt = (rows: typeof delivered, date: string) => {
        const found = rows.find((row) => String(row.group.created_at) === date);
        return found ? Number(found.value) : null;
      };
      return resultBuilder.multipleTimeBased('Month', dates, [
        { label: 'delivered', values: dates.map((date) => valueAt(delivered, date)) },
        { label: 'cancelled', values: dates.map((date) => valueAt(cancelled, date)) },
      ]);
    })
    .addChart('deliveryRate', async (context, resultBuilder) => {
      const orders = context.dataSource.getCollection('orders');
      const [all] = await orders.aggregate(null, { operation: 'Count' });
      const [delivered] = await orders.aggregate(
        { conditionTree: { field: 'status', operator: 'Equal', value: 'delivered' } },
        { operation: 'Count' },
      );
      const total = Number(all?.value ?? 0);
      return resultBuilder.percentage(
        total ? Math.round((100 * Number(delivered?.value ?? 0)) / total) : 0,
      );
    })
    .addChart('customersObjective', async (context, resultBuilder) => {
      const [row] = await context.dataSource
        .getCollection('customers')
        .aggregate(null, { operation: 'Count' });
      return resultBuilder.objective(Number(row?.value ?? 0), 10_000);
    })
    .addChart('topCategories', async (context, resultBuilder) => {
      const rows = await context.dataSource
        .getCollection('products')
        .aggregate(null, { operation: 'Sum', field: 'stock', groups: [{ field: 'category' }] });
      return resultBuilder.leaderboard(
        Object.fromEntries(rows.map((row) => [String(row.group.category), Number(row.value)])),
      );
    })
    .addChart('shopStatus', async (context, resultBuilder) => {
      const [row] = await context.dataSource
        .getCollection('products')
        .aggregate(
          { conditionTree: { field: 'stock', operator: 'Equal', value: 0 } },
          { operation: 'Count' },
        );
      return resultBuilder.smart({
        outOfStock: Number(row?.value ?? 0),
        timezone: context.timezone,
      });
    });
}
