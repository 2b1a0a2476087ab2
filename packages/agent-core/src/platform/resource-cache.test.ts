import { ResourceCache } from './resource-cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, ko) => {
    resolve = ok;
    reject = ko;
  });
  return { promise, resolve, reject };
}

describe('ResourceCache', () => {
  let now = 0;
  const cache = () => new ResourceCache<string, number>(1000, () => now);

  beforeEach(() => {
    now = 0;
  });

  it('shares one fetch between concurrent readers and caches the value until it expires', async () => {
    const values = cache();
    const fetch = jest.fn(async () => 1);
    const [a, b] = await Promise.all([values.get('k', fetch), values.get('k', fetch)]);
    expect([a, b, fetch.mock.calls.length]).toEqual([1, 1, 1]);
    now = 999;
    await values.get('k', fetch);
    expect(fetch).toHaveBeenCalledTimes(1);
    now = 1000;
    await values.get('k', fetch);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('hands out one promise per cached value, and a new one after an invalidation', async () => {
    const values = cache();
    let next = 1;
    const fetch = async () => next++;
    const first = values.get('k', fetch);
    await first;
    expect(values.get('k', fetch)).toBe(values.get('k', fetch));
    expect(await values.get('k', fetch)).toBe(1);
    values.invalidate('k');
    const refetched = values.get('k', fetch);
    expect(refetched).not.toBe(first);
    expect(await refetched).toBe(2);
  });

  it('does not cache failures', async () => {
    const values = cache();
    await expect(values.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await values.get('k', async () => 2)).toBe(2);
  });

  it('invalidates one key or all, and ignores a fetch that raced an invalidation', async () => {
    const values = cache();
    await values.get('a', async () => 1);
    await values.get('b', async () => 1);
    values.invalidate('a');
    expect(await values.get('a', async () => 2)).toBe(2);
    expect(await values.get('b', async () => 2)).toBe(1);

    values.invalidate('b');
    const slow = deferred<number>();
    const racing = values.get('b', () => slow.promise);
    values.invalidate();
    const fresh = values.get('b', async () => 3);
    slow.resolve(99);
    expect(await racing).toBe(99);
    expect(await fresh).toBe(3);
    expect(await values.get('b', async () => 4)).toBe(3);
  });
});
