'use strict';
// The pool-style script: RandomX and yespower shares from many promises
// across a seed change, every answer a published one.
const test = require('node:test');
const assert = require('node:assert');
const poolVerify = require('../examples/pool-verify.js');

test('pool-verify: every share right across a seed change', async () => {
  const { ok, bad } = await poolVerify(3);
  assert.deepStrictEqual(bad, []);
  assert.ok(ok >= 100, `${ok} shares verified`);
});
