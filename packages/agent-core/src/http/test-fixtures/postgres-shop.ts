import express from 'express';

import { openSqlDataSource, type SqlDataSource } from '@canopy/datasource-sql';

import { createAgentRouter } from '../create-agent-router';
import { createTestServices } from './shop-services';

/**
 * A PostgreSQL shop with one primary-key type per table: `customers` (int4 serial), `orders`
 * (int8), `products` (uuid), `labels` (int2), `orders_products` (junction: orders ↔ products).
 */
export const POSTGRES_SHOP_DDL = `
  CREATE TABLE customers (id serial PRIMARY KEY, full_name text NOT NULL, region text NOT NULL);
  CREATE TABLE orders (
    id bigint PRIMARY KEY,
    reference text NOT NULL,
    status text NOT NULL DEFAULT 'pending',
    total numeric(10,2) NOT NULL,
    quantity integer NOT NULL DEFAULT 1,
    paid_at timestamptz,
    customer_id integer REFERENCES customers(id));
  CREATE TABLE products (id uuid PRIMARY KEY, name text NOT NULL);
  CREATE TABLE orders_products (
    order_id bigint REFERENCES orders(id),
    product_id uuid REFERENCES products(id),
    PRIMARY KEY (order_id, product_id));
  CREATE TABLE labels (code smallint PRIMARY KEY, name text NOT NULL);
  INSERT INTO customers (full_name, region) VALUES ('Ada Martin', 'EU'), ('Bob Stone', 'US');
  INSERT INTO orders (id, reference, status, total, quantity, paid_at, customer_id) VALUES
    (1, 'SO-1', 'paid', 120, 2, '2025-11-02T09:15:00Z', 1),
    (2, 'SO-2', 'pending', 48.5, 1, NULL, NULL),
    (3, 'SO-3', 'paid', 15, 3, NULL, 2);
  INSERT INTO products (id, name) VALUES
    ('7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f', 'Lamp'),
    ('9a38c052-50f9-df5b-200b-482880c100f1', 'Desk');
  INSERT INTO orders_products (order_id, product_id) VALUES (1, '7b3f0d2c-1d6e-4a8e-9a51-3f4b2c1d0e9f');
  INSERT INTO labels (code, name) VALUES (1, 'fragile'), (2, 'gift');
`;

/** The shop's data source and an express app serving the agent on it (prefix `/forest`). */
export async function openPostgresShop(
  url: string,
  knex: { raw(sql: string): Promise<unknown> },
): Promise<{
  dataSource: SqlDataSource;
  services: ReturnType<typeof createTestServices>;
  app: express.Express;
}> {
  await knex.raw(POSTGRES_SHOP_DDL);
  const dataSource = await openSqlDataSource(url);
  const services = createTestServices(dataSource);
  const app = express();
  app.use(createAgentRouter(services));
  return { dataSource, services, app };
}
