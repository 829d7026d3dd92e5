'use strict';
// Nothing leaks: RandomX objects made and closed (or dropped and
// collected) in a loop leave the resident set where it was; so do many
// yespower calls.
const test = require('node:test');
const assert = require('node:assert');
const v8 = require('v8');
const vm = require('vm');
const y = require('..');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const MiB = 1 << 20;
const rss = () => process.memoryUsage().rss;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* The keys' memory goes on a thread of its own: wait for it. */
async function settle(limit) {
  for (let i = 0; i < 100 && rss() > limit; i++) {
    gc();
    await sleep(50);
  }
  return rss();
}

test('RandomX: 6 objects made and closed, 6 dropped: RSS back down', async () => {
  const base = rss();
  for (let i = 0; i < 6; i++) {
    const rx = await y.RandomX.create(Buffer.from(`leak key ${i}`));
    await rx.hashAsync(Buffer.from('x'));
    rx.close();
  }
  let after = await settle(base + 160 * MiB);
  assert.ok(after < base + 160 * MiB,
      `closed: RSS ${(after - base) / MiB} MiB above the start (a cache is 256)`);
  for (let i = 0; i < 6; i++) {
    // dropped without close(): the finalizer frees it
    let rx = new y.RandomX(Buffer.from(`leak key ${i}`));
    rx.hash(Buffer.from('x'));
    rx = null;
    gc();
  }
  after = await settle(base + 160 * MiB);
  assert.ok(after < base + 160 * MiB,
      `collected: RSS ${(after - base) / MiB} MiB above the start`);
});

test('RandomX: a key change frees the old key once its calls are done', async () => {
  const rx = await y.RandomX.create(Buffer.from('change 0'));
  const base = rss();
  for (let i = 1; i <= 4; i++) {
    const inflight = rx.hashAsync(Buffer.from('y'));
    await rx.setKeyAsync(Buffer.from(`change ${i}`));
    await inflight;
  }
  const after = await settle(base + 160 * MiB);
  rx.close();
  assert.ok(after < base + 160 * MiB,
      `RSS ${(after - base) / MiB} MiB above one key's`);
});

test('yespower: 3000 calls, sync, async and batches: RSS steady', async () => {
  const d = Buffer.alloc(80, 1);
  const run = async () => {
    for (let i = 0; i < 250; i++) {
      y.yespower(d, { N: 1024, r: 8 });
      y.sha256d(d);
      await Promise.all([y.yespowerAsync(d, { N: 1024, r: 8, pers: 'p' }),
        y.yespowerBatchAsync([d, d, d], { N: 1024, r: 8 }),
        y.sha256dAsync(d)]);
    }
  };
  await run();	// per-thread memory grows to what it needs here
  gc();
  const base = rss();
  await run();
  await run();
  gc();
  const after = rss();
  assert.ok(after < base + 24 * MiB,
      `RSS grew ${(after - base) / MiB} MiB over 2000 more calls`);
});
