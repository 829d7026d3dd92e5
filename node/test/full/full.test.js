'use strict';
// Full mode once: a 2080 MiB dataset built on the pool, the published
// answers from it, a few promises at once.  make check-node-full.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const y = require('../..');

const top = path.join(__dirname, '..', '..', '..');
const h = fs.readFileSync(path.join(top, 'test/randomx/rx-published.h'), 'utf8');
const strings = (name) => {
  const body = new RegExp(`${name}\\[5\\] = \\{([^}]*)\\}`).exec(h)[1];
  return [...body.matchAll(/"([^"]*)"|NULL/g)].map((m) => m[1]);
};

test('RandomX full mode: the published v1 and v2 answers', async () => {
  const inputs = strings('published_input').slice(0, 3).map((s) => Buffer.from(s));
  const rx = await y.RandomX.create(Buffer.from('test key 000'), { mode: 'full' });
  assert.strictEqual(rx.mode, 'full');
  const v1 = strings('published_v1');
  const got = await Promise.all(inputs.concat(inputs).map((b) => rx.hashAsync(b)));
  got.forEach((b, i) => assert.strictEqual(b.toString('hex'), v1[i % 3]));
  assert.deepStrictEqual(rx.hashMany(inputs).map((b) => b.toString('hex')),
      v1.slice(0, 3));
  rx.close();
  // v2 on a dataset of its own (the dataset does not depend on the version)
  const rx2 = await y.RandomX.create(Buffer.from('test key 000'),
      { mode: 'full', v2: true });
  const v2 = strings('published_v2');
  assert.strictEqual((await rx2.hashAsync(inputs[0])).toString('hex'), v2[0]);
  assert.strictEqual(rx2.hash(inputs[2]).toString('hex'), v2[2]);
  rx2.close();
});
