'use strict';
// Many promises at once on libuv's pool, each answer checked against a
// known one; a key change while calls are in flight.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const y = require('..');

const top = path.join(__dirname, '..', '..');
const h = fs.readFileSync(path.join(top, 'test/randomx/rx-published.h'), 'utf8');
const strings = (name) => {
  const body = new RegExp(`${name}\\[5\\] = \\{([^}]*)\\}`).exec(h)[1];
  return [...body.matchAll(/"([^"]*)"|NULL/g)].map((m) => m[1]);
};
const inputs = strings('published_input').slice(0, 4).map((s) => Buffer.from(s));
const v1 = strings('published_v1');
const v2 = strings('published_v2');
const key0 = Buffer.from('test key 000');	// inputs 0..2
const key1 = Buffer.from('test key 001');	// input 3

test('RandomX: 64 concurrent hashAsync calls, each answer right', async () => {
  const rx = await y.RandomX.create(key0);
  const calls = [];
  for (let i = 0; i < 64; i++)
    calls.push(rx.hashAsync(inputs[i % 3]).then((b) => [i, b.toString('hex')]));
  for (const [i, got] of await Promise.all(calls))
    assert.strictEqual(got, v1[i % 3], `call ${i}`);
  rx.close();
});

test('RandomX: the event loop runs while hashes and a key build run', async () => {
  const rx = await y.RandomX.create(key0, { v2: true });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const work = [rx.setKeyAsync(key1)];
  for (let i = 0; i < 8; i++)
    work.push(rx.hashAsync(inputs[0]));
  try {
    await Promise.all(work);
  } finally {
    clearInterval(timer);	// else a failure would keep the loop alive
  }
  assert.ok(ticks > 5, `the loop ticked ${ticks} times meanwhile`);
  rx.close();
});

test('RandomX: key change while calls are in flight', async () => {
  const rx = await y.RandomX.create(key0);
  // calls made before the change use the old key, even those made while
  // the new key is being built; calls made after it resolves, the new one
  const before = [];
  for (let i = 0; i < 12; i++)
    before.push(rx.hashAsync(inputs[i % 3]));
  const change = rx.setKeyAsync(key1);
  const during = [];
  for (let i = 0; i < 12; i++)
    during.push(rx.hashAsync(inputs[i % 3]));
  const manyDuring = rx.hashManyAsync(inputs.slice(0, 3));
  assert.strictEqual(await change, true);
  assert.deepStrictEqual(rx.key, key1);
  const after = [];
  for (let i = 0; i < 12; i++)
    after.push(rx.hashAsync(inputs[3]));
  (await Promise.all(before)).forEach((b, i) =>
    assert.strictEqual(b.toString('hex'), v1[i % 3], `before ${i}`));
  (await Promise.all(during)).forEach((b, i) =>
    assert.strictEqual(b.toString('hex'), v1[i % 3], `during ${i}`));
  assert.deepStrictEqual((await manyDuring).map((b) => b.toString('hex')),
      v1.slice(0, 3));
  (await Promise.all(after)).forEach((b, i) =>
    assert.strictEqual(b.toString('hex'), v1[3], `after ${i}`));
  // the synchronous forms see the new key too
  assert.strictEqual(rx.hash(inputs[3]).toString('hex'), v1[3]);
  rx.close();
});

test('RandomX: a later key change wins over an earlier one still building', async () => {
  const rx = await y.RandomX.create(key0, { v2: true });
  const first = rx.setKeyAsync(key1);
  const second = rx.setKeyAsync(key0);	// the current key: nothing to build
  assert.strictEqual(await second, true);
  assert.strictEqual(await first, false);	// overtaken: not installed
  assert.deepStrictEqual(rx.key, key0);
  assert.strictEqual((await rx.hashAsync(inputs[0])).toString('hex'), v2[0]);
  // close() while a change builds: calls in flight still finish right
  const inflight = rx.hashAsync(inputs[1]);
  const late = rx.setKeyAsync(key1);
  rx.close();
  assert.strictEqual((await inflight).toString('hex'), v2[1]);
  assert.strictEqual(await late, false);
});

test('yespower: 32 concurrent yespowerAsync calls across presets, answers right', async () => {
  const names = ['yespower', 'yespowerr16', 'yescryptr16', 'power2b'];
  const data = [];
  for (let i = 0; i < 8; i++)
    data.push(Buffer.from(`header ${i}`.padEnd(80, '.')));
  const want = new Map();
  for (const n of names)
    for (const d of data)
      want.set(n + d, y.yespower(d, n).toString('hex'));
  const calls = [];
  for (const n of names)
    for (const d of data)
      calls.push(y.yespowerAsync(d, n).then((b) => [n + d, b.toString('hex')]));
  for (const [id, got] of await Promise.all(calls))
    assert.strictEqual(got, want.get(id));
});
