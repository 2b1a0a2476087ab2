import type { DemoPlatform } from './platform';

const api = (chart: string, kind: string) => ({ source: 'api', chart, kind });
const collection = (query: Record<string, unknown>) => ({
  source: 'collection',
  query: { aggregator: 'Count', aggregateFieldName: null, ...query },
});

/**
 * The demo environment's dashboard: the shop's charts declared in code (one per result type of
 * the chart result builder, see `agent/charts.ts`) and charts built in the console, computed by
 * the agent from a collection. The built ones are served in every rendering's `stats`, so that
 * the support member (permission level `user`) may run them too.
 */
export const DEMO_DASHBOARD = [
  { id: 'revenue', title: 'Revenue (vs. previous year)', width: 4, chart: api('revenue', 'value') },
  { id: 'delivery', title: 'Delivery rate', width: 4, chart: api('deliveryRate', 'percentage') },
  {
    id: 'customers-goal',
    title: 'Customers objective',
    width: 4,
    chart: api('customersObjective', 'objective'),
  },
  {
    id: 'orders-status',
    title: 'Orders by status',
    width: 6,
    chart: collection({ type: 'Pie', sourceCollectionName: 'orders', groupByFieldName: 'status' }),
  },
  {
    id: 'orders-month',
    title: 'Orders per month',
    width: 6,
    chart: collection({
      type: 'Line',
      sourceCollectionName: 'orders',
      groupByFieldName: 'created_at',
      timeRange: 'Month',
    }),
  },
  {
    id: 'orders-month-status',
    title: 'Delivered and cancelled orders per month',
    width: 8,
    chart: api('ordersPerMonthByStatus', 'multiple-time'),
  },
  {
    id: 'payment-methods',
    title: 'Payment methods',
    width: 4,
    chart: api('paymentMethods', 'distribution'),
  },
  {
    id: 'top-customers',
    title: 'Top customers by orders',
    width: 6,
    chart: collection({
      type: 'Leaderboard',
      sourceCollectionName: 'customers',
      relationshipFieldName: 'orders',
      labelFieldName: 'email',
      limit: 5,
    }),
  },
  {
    id: 'top-categories',
    title: 'Stock by category',
    width: 6,
    chart: api('topCategories', 'leaderboard'),
  },
  {
    id: 'orders-total',
    title: 'Orders',
    width: 4,
    chart: collection({ type: 'Value', sourceCollectionName: 'orders' }),
  },
  {
    id: 'customers-objective',
    title: 'Customers (objective 6,000)',
    width: 4,
    chart: collection({ type: 'Objective', sourceCollectionName: 'customers', objective: 6000 }),
  },
  {
    id: 'shop-status',
    title: 'Shop status (smart chart)',
    width: 4,
    chart: api('shopStatus', 'smart'),
  },
];

/** Saves {@link DEMO_DASHBOARD} as the demo environment's dashboard (as the admin). */
export async function seedDashboard(platform: DemoPlatform): Promise<void> {
  await platform.manage(
    'PUT',
    `/v1/project/${encodeURIComponent(platform.project)}/environment/${encodeURIComponent(
      platform.environment,
    )}/dashboard`,
    { items: DEMO_DASHBOARD },
  );
}
