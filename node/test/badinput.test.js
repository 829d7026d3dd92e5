'use strict';
// Bad input: JavaScript's own exceptions, never a crash.
const test = require('node:test');
const assert = require('node:assert');
const y = require('..');

const notBytes = [undefined, null, 'abc', 42, {}, [], true, Symbol('x'), 10n];
const typeErr = { name: 'TypeError' };
const rangeErr = { name: 'RangeError' };

test('yespower: data must be bytes', async () => {
  for (const v of notBytes) {
    assert.throws(() => y.yespower(v), typeErr);
    assert.throws(() => y.yespowerAsync(v), typeErr);
    assert.throws(() => y.yescryptR16(v), typeErr);
    assert.throws(() => y.power2b(v), typeErr);
    assert.throws(() => y.sha256d(v), typeErr);
    assert.throws(() => y.sha256dAsync(v), typeErr);
  }
  // every kind of view is bytes
  const b = Buffer.from('abc');
  const want = y.yespower(b);
  assert.deepStrictEqual(y.yespower(new Uint8Array([97, 98, 99])), want);
  assert.deepStrictEqual(y.yespower(new DataView(b.buffer, b.byteOffset, 3)),
      want);
  assert.deepStrictEqual(y.yespower(new Uint8Array([97, 98, 99]).buffer), want);
  assert.strictEqual(y.yespower(Buffer.alloc(0)).length, 32);
});

test('yespower: parameters out of range are RangeError, wrong kinds TypeError', () => {
  const d = Buffer.alloc(80);
  for (const spec of [{ N: 1000 }, { N: 512 }, { N: 1 << 20 }, { N: 2048.5 },
    { r: 7 }, { r: 33 }, { r: -1 }, { version: 7 }, { version: '2.0' },
    { hash: 'md5' }, { version: 5, hash: 'blake2b' }, 'nosuchpreset', { N: NaN }])
    assert.throws(() => y.yespower(d, spec), rangeErr, JSON.stringify(spec));
  for (const spec of [{ N: '2048' }, { r: [] }, { version: {} },
    { pers: 5 }, { hash: 1 }, 17, true])
    assert.throws(() => y.yespower(d, spec), typeErr, JSON.stringify(spec));
  assert.throws(() => y.yespowerBatch('x'), typeErr);
  assert.throws(() => y.yespowerBatch([d, 'x']), typeErr);
  assert.throws(() => y.yespowerBatchAsync([d, 5]), typeErr);
});

test('RandomX: bad keys, options and inputs', async () => {
  assert.throws(() => y.RandomX(Buffer.alloc(1)), typeErr);	// without new
  for (const v of ['k', 5, {}])
    assert.throws(() => new y.RandomX(v), typeErr);
  assert.throws(() => new y.RandomX(null, 5), typeErr);
  assert.throws(() => new y.RandomX(null, { mode: 'fast' }), rangeErr);
  assert.throws(() => new y.RandomX(null, { mode: 1 }), typeErr);
  assert.throws(() => new y.RandomX(null, { v2: 'yes' }), typeErr);
  assert.throws(() => new y.RandomX(null, { threads: 0 }), rangeErr);
  const rx = new y.RandomX(null);
  assert.strictEqual(rx.key, null);
  assert.throws(() => rx.hash(Buffer.alloc(1)), /no key yet/);
  assert.throws(() => rx.hashAsync(Buffer.alloc(1)), /no key yet/);
  await rx.setKeyAsync(Buffer.from('bad input key'));
  assert.deepStrictEqual(rx.key, Buffer.from('bad input key'));
  for (const v of notBytes) {
    assert.throws(() => rx.hash(v), typeErr);
    assert.throws(() => rx.hashAsync(v), typeErr);
    assert.throws(() => rx.commitment(v), typeErr);
    assert.throws(() => rx.setKey(v), typeErr);
    assert.throws(() => rx.setKeyAsync(v), typeErr);
  }
  assert.throws(() => rx.hashMany('x'), typeErr);
  assert.throws(() => rx.hashMany([Buffer.alloc(1), 2]), typeErr);
  assert.throws(() => rx.hashManyAsync([null]), typeErr);
  // methods on something that is not a RandomX object
  assert.throws(() => y.RandomX.prototype.hash.call({}, Buffer.alloc(1)),
      typeErr);
  assert.throws(() => y.randomxCommitment(Buffer.alloc(1), Buffer.alloc(31)),
      rangeErr);
  rx.close();
  assert.throws(() => rx.hash(Buffer.alloc(1)), /closed/);
  assert.throws(() => rx.setKey(Buffer.alloc(1)), /closed/);
  rx.close();	// twice is fine
});

test('randomx(): variants it does not compute are RangeError', async () => {
  const d = Buffer.alloc(4);
  const seed = Buffer.alloc(32);
  for (const v of [1, 2, 3, 17, 19, 20, 22, 'rx/wow', -2])
    assert.throws(() => y.randomx(d, seed, v), rangeErr);
  assert.throws(() => y.randomx(d, seed, {}), typeErr);
  assert.throws(() => y.randomx('d', seed), typeErr);
  assert.throws(() => y.randomx(d, 'seed'), typeErr);
  await assert.rejects(y.randomxAsync(d, 'seed'), typeErr);
  assert.throws(() => y.setRandomxCacheSize(0), rangeErr);
  assert.throws(() => y.setRandomxCacheSize('2'), typeErr);
});

test('inputs are copied: changing a Buffer after an async call does not change its hash', async () => {
  const b = Buffer.from('copied at call time');
  const want = y.yespower(b);
  const p = y.yespowerAsync(b);
  b.fill(0);
  assert.deepStrictEqual(await p, want);
});

test('getters that throw: their exception, not a crash', () => {
  const boom = { get N() { throw new Error('boom N'); } };
  assert.throws(() => y.yespower(Buffer.alloc(1), boom), /boom N/);
  const opts = { get mode() { throw new Error('boom mode'); } };
  assert.throws(() => new y.RandomX(null, opts), /boom mode/);
  const inputs = [Buffer.alloc(1)];
  Object.defineProperty(inputs, 1, { get() { throw new Error('boom 1'); } });
  assert.throws(() => y.yespowerBatch(inputs), /boom 1/);
});
