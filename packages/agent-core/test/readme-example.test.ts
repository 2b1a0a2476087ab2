import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCaller } from './fixtures';
import { main } from './readme-example';

describe('README example', () => {
  it('is the code shown in the README', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const example = readFileSync(join(__dirname, 'readme-example.ts'), 'utf8');
    expect(readme).toContain(example.trim());
  });

  it('runs and gives the documented results', async () => {
    const { bigOrders, result } = await main(makeCaller());
    expect(bigOrders).toEqual([{ id: 1, amount: 250, customerName: 'Ada Lovelace' }]);
    expect(result).toMatchObject({ type: 'Success', message: 'Order 1 paid' });
  });
});
