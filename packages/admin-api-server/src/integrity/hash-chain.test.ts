import { canonicalForm, chainHash, GENESIS_HASH, type ChainedFields } from './hash-chain';

const fields: ChainedFields = {
  chainSeq: 1,
  projectId: 1,
  environmentId: 2,
  userId: 3,
  teamId: 4,
  collectionName: 'orders',
  type: 'write',
  action: 'update',
  label: null,
  recordIds: ['1'],
  inboxName: null,
  workflow: { runId: '2', name: 'KYC' },
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
};

it('has a canonical form independent of object key order', () => {
  expect(canonicalForm(fields)).toBe(
    canonicalForm({ ...fields, workflow: { name: 'KYC', runId: '2' } }),
  );
  expect(canonicalForm(fields)).toContain('{"name":"KYC","runId":"2"}');
});

it('changes the hash when any field or the previous hash changes', () => {
  const hash = chainHash(GENESIS_HASH, fields);
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  expect(chainHash(GENESIS_HASH, { ...fields, recordIds: ['2'] })).not.toBe(hash);
  expect(
    chainHash(GENESIS_HASH, { ...fields, createdAt: new Date(fields.createdAt.getTime() + 1) }),
  ).not.toBe(hash);
  expect(chainHash('1'.repeat(64), fields)).not.toBe(hash);
  expect(chainHash(GENESIS_HASH, fields)).toBe(hash);
});

it('keys the link: without the key the same content gives another hash', () => {
  const key = { secret: Buffer.from('chain-secret-0123456789abcdef0123456789') };
  const keyed = chainHash(GENESIS_HASH, fields, key);
  expect(keyed).toMatch(/^[0-9a-f]{64}$/);
  expect(keyed).not.toBe(chainHash(GENESIS_HASH, fields));
  expect(keyed).not.toBe(chainHash(GENESIS_HASH, fields, { secret: Buffer.from('other key') }));
  expect(chainHash(GENESIS_HASH, fields, key)).toBe(keyed);
});
