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
    .customizeCollection('payments', (payments) => payments.disableSearch());
  addShopCharts(agent);
  return agent;
}
