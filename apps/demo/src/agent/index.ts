import type { Agent } from '@canopy/agent-core';
import { addShopCharts } from './charts';
import { customizeCustomers } from './customers';
import { customizeOrders } from './orders';
import { customizeProducts } from './products';

/** Every customization of the demo's shop agent. */
export function customizeShop(agent: Agent): Agent {
  agent
    .customizeCollection('customers', customizeCustomers)
    .customizeCollection('orders', customizeOrders)
    .customizeCollection('products', customizeProducts)
    .customizeCollection('reviews', (reviews) =>
      reviews
        .disableCount()
        .addSegment('Negative', { field: 'rating', operator: 'LessThan', value: 3 }),
    )
    .customizeCollection('payments', (payments) =>
      payments.disableSearch().setFieldCurrency('amount', 'EUR'),
    )
    // The shop sells in euros: the Console shows prices and amounts in EUR.
    .customizeCollection('order_lines', (lines) => lines.setFieldCurrency('unit_price', 'EUR'));
  addShopCharts(agent);
  return agent;
}
