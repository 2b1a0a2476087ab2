import type { Knex } from 'knex';

/** How many rows the sample shop gets. Deterministic: the same sizes give the same data. */
export interface ShopSize {
  customers: number;
  products: number;
  orders: number;
}

export const DEFAULT_SHOP_SIZE: ShopSize = { customers: 5_000, products: 400, orders: 20_000 };

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Ken',
  'Frances',
  'Dennis',
  'Radia',
  'Tim',
  'Katherine',
  'Linus',
  'Hedy',
  'John',
  'Sophie',
  'Niklaus',
  'Annie',
  'Guido',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Hamilton',
  'Thompson',
  'Allen',
  'Ritchie',
  'Perlman',
  'Berners-Lee',
  'Johnson',
  'Torvalds',
  'Lamarr',
  'McCarthy',
  'Wilson',
  'Wirth',
  'Easley',
  'van Rossum',
];
const CITIES = [
  ['Paris', 'FR', 48.8566, 2.3522],
  ['Lyon', 'FR', 45.764, 4.8357],
  ['Berlin', 'DE', 52.52, 13.405],
  ['Madrid', 'ES', 40.4168, -3.7038],
  ['Lisbon', 'PT', 38.7223, -9.1393],
  ['Rome', 'IT', 41.9028, 12.4964],
  ['Amsterdam', 'NL', 52.3676, 4.9041],
  ['Dublin', 'IE', 53.3498, -6.2603],
  ['London', 'GB', 51.5072, -0.1276],
  ['New York', 'US', 40.7128, -74.006],
  ['Montreal', 'CA', 45.5017, -73.5673],
  ['Tokyo', 'JP', 35.6762, 139.6503],
] as const;
const PRODUCT_WORDS = [
  'Oak',
  'Linen',
  'Copper',
  'Wool',
  'Cedar',
  'Slate',
  'Maple',
  'Canvas',
  'Walnut',
  'Amber',
];
const PRODUCT_KINDS = [
  'Lamp',
  'Chair',
  'Table',
  'Blanket',
  'Vase',
  'Shelf',
  'Rug',
  'Mug',
  'Clock',
  'Basket',
];
const CATEGORIES = ['furniture', 'lighting', 'textiles', 'kitchen', 'decor'];
const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'];
const PAYMENT_METHODS = ['card', 'transfer', 'paypal', 'voucher'];
const REVIEW_WORDS = [
  'Lovely',
  'Solid',
  'Disappointing',
  'Perfect',
  'Sturdy',
  'Fragile',
  'Beautiful',
];

const sqlArray = (values: readonly (string | number)[]) =>
  `ARRAY[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(', ')}]`;
/** 1-based pick from a literal array by a deterministic integer expression. */
const pick = (values: readonly (string | number)[], expr: string) =>
  `(${sqlArray(values)})[1 + ((${expr}) % ${values.length})]`;

/**
 * Creates the sample shop tables and fills them with deterministic data, generated inside the
 * database (generate_series and integer hashing) so tens of thousands of rows take seconds even on
 * the embedded PostgreSQL.
 */
export async function seedShop(knex: Knex, size: ShopSize = DEFAULT_SHOP_SIZE): Promise<void> {
  const statements = [
    `CREATE TYPE order_status AS ENUM (${ORDER_STATUSES.map((s) => `'${s}'`).join(', ')})`,
    `CREATE TYPE payment_method AS ENUM (${PAYMENT_METHODS.map((s) => `'${s}'`).join(', ')})`,
    `CREATE TABLE customers (
      id serial PRIMARY KEY,
      first_name text NOT NULL,
      last_name text NOT NULL,
      email text NOT NULL UNIQUE,
      address jsonb NOT NULL,
      is_vip boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL
    )`,
    `CREATE TABLE products (
      id serial PRIMARY KEY,
      name text NOT NULL,
      sku text NOT NULL UNIQUE,
      category text NOT NULL,
      price numeric(10, 2) NOT NULL,
      stock integer NOT NULL,
      variants jsonb
    )`,
    `CREATE TABLE orders (
      id serial PRIMARY KEY,
      customer_id integer NOT NULL REFERENCES customers(id),
      status order_status NOT NULL,
      shipping_address jsonb,
      created_at timestamptz NOT NULL,
      shipped_on date
    )`,
    `CREATE TABLE order_lines (
      order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
      product_id integer NOT NULL REFERENCES products(id),
      quantity integer NOT NULL CHECK (quantity > 0),
      unit_price numeric(10, 2) NOT NULL,
      PRIMARY KEY (order_id, product_id)
    )`,
    `CREATE TABLE payments (
      id serial PRIMARY KEY,
      order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
      method payment_method NOT NULL,
      amount numeric(10, 2) NOT NULL,
      paid_at timestamptz NOT NULL
    )`,
    `CREATE TABLE reviews (
      id serial PRIMARY KEY,
      product_id integer NOT NULL REFERENCES products(id),
      customer_id integer NOT NULL REFERENCES customers(id),
      rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
      comment text,
      created_at timestamptz NOT NULL
    )`,
    `INSERT INTO customers (first_name, last_name, email, address, is_vip, created_at)
      SELECT ${pick(FIRST_NAMES, 'i * 7')}, ${pick(LAST_NAMES, 'i * 13 + i / 20')},
        'customer' || i || '@example.com',
        jsonb_build_object(
          'street', (1 + (i * 37) % 200) || ' ' || ${pick(PRODUCT_WORDS, 'i * 3')} || ' Street',
          'city', ${pick(
            CITIES.map((c) => c[0]),
            'i * 11',
          )},
          'zipCode', lpad(((i * 7919) % 99999)::text, 5, '0'),
          'country', ${pick(
            CITIES.map((c) => c[1]),
            'i * 11',
          )},
          'geo', jsonb_build_object(
            'lat', ${pick(
              CITIES.map((c) => c[2]),
              'i * 11',
            )},
            'lng', ${pick(
              CITIES.map((c) => c[3]),
              'i * 11',
            )}
          )
        ),
        (i % 17 = 0),
        timestamptz '2024-01-01 00:00:00+00' + ((i * 7541) % 63072000) * interval '1 second'
      FROM generate_series(1, ${size.customers}) AS i`,
    `INSERT INTO products (name, sku, category, price, stock, variants)
      SELECT ${pick(PRODUCT_WORDS, 'i')} || ' ' || ${pick(PRODUCT_KINDS, 'i / 10')} || ' ' || i,
        'SKU-' || lpad(i::text, 5, '0'),
        ${pick(CATEGORIES, 'i * 3')},
        (5 + (i * 7919) % 49500 / 100.0)::numeric(10, 2),
        (i * 31) % 250,
        -- A JSON list: the sizes a product comes in, with their own stock.
        CASE WHEN i % 3 = 0 THEN NULL ELSE jsonb_build_array(
          jsonb_build_object('size', 'M', 'stock', (i * 7) % 20),
          jsonb_build_object('size', 'L', 'stock', (i * 11) % 20)
        ) END
      FROM generate_series(1, ${size.products}) AS i`,
    `INSERT INTO orders (customer_id, status, shipping_address, created_at, shipped_on)
      SELECT 1 + (i * 7919) % ${size.customers},
        ${pick(ORDER_STATUSES, 'i * 5 + i / 7')}::order_status,
        CASE WHEN i % 9 = 0 THEN NULL ELSE jsonb_build_object(
          'city', ${pick(
            CITIES.map((c) => c[0]),
            'i',
          )}, 'country', ${pick(
            CITIES.map((c) => c[1]),
            'i',
          )}
        ) END,
        timestamptz '2024-06-01 00:00:00+00' + ((i::bigint * 104729) % 47304000) * interval '1 second',
        CASE WHEN (i * 5 + i / 7) % 6 IN (2, 3)
          THEN (date '2024-06-02' + ((i::bigint * 104729) % 47304000 / 86400)::integer)
        END
      FROM generate_series(1, ${size.orders}) AS i`,
    `INSERT INTO order_lines (order_id, product_id, quantity, unit_price)
      SELECT o.id, 1 + (o.id * 31 + n * 97) % ${size.products}, 1 + (o.id + n) % 4, p.price
      FROM orders o
      CROSS JOIN generate_series(0, 3) AS n
      JOIN products p ON p.id = 1 + (o.id * 31 + n * 97) % ${size.products}
      WHERE n <= o.id % 4`,
    `INSERT INTO payments (order_id, method, amount, paid_at)
      SELECT o.id, ${pick(PAYMENT_METHODS, 'o.id * 3')}::payment_method,
        (SELECT sum(l.quantity * l.unit_price) FROM order_lines l WHERE l.order_id = o.id),
        o.created_at + interval '5 minutes'
      FROM orders o WHERE o.status NOT IN ('pending', 'cancelled')`,
    `INSERT INTO reviews (product_id, customer_id, rating, comment, created_at)
      SELECT 1 + (i * 13) % ${size.products}, 1 + (i * 7919) % ${size.customers}, 1 + (i * 7) % 5,
        CASE WHEN i % 4 = 0 THEN NULL ELSE ${pick(REVIEW_WORDS, 'i * 3')} || ' product, ' ||
          CASE WHEN i % 2 = 0 THEN 'would buy again.' ELSE 'as described.' END END,
        timestamptz '2024-07-01 00:00:00+00' + ((i * 15485863::bigint) % 40000000) * interval '1 second'
      FROM generate_series(1, ${Math.round(size.orders * 0.4)}) AS i`,
  ];
  await knex.transaction(async (trx) => {
    for (const statement of statements) await trx.raw(statement);
  });
}

/** Row counts of every table of the shop, for the walkthrough and the tests. */
export async function countShop(knex: Knex): Promise<Record<string, number>> {
  const tables = ['customers', 'products', 'orders', 'order_lines', 'payments', 'reviews'];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await knex(table).count<{ count: string }[]>({ count: '*' });
    counts[table] = Number(row?.count ?? 0);
  }
  return counts;
}
