'use strict';
// Known answers: yespower's from TESTS-OK (the original's tests.c,
// whose inputs are rebuilt here as it builds them), the chains' presets
// from test/vectors/chains.txt, RandomX's published ones from
// test/randomx/rx-published.h and the vector file, SHA-256d from
// test/vectors/sha256.txt.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const y = require('..');

const top = path.join(__dirname, '..', '..');
const read = (f) => fs.readFileSync(path.join(top, f), 'utf8');

test('yespower: TESTS-OK through yespower() and yespowerAsync()', async () => {
  // tests.c: src[i] = i * 3 for an 80-byte input; pers as printed
  const src = Buffer.alloc(80);
  for (let i = 0; i < 80; i++)
    src[i] = (i * 3) & 0xff;
  const lines = read('TESTS-OK').split('\n')
      .filter((l) => /^yespower\((5|10), \d+, \d+, (NULL|"[^"]*"|BSTY)\) = /.test(l));
  assert.ok(lines.length >= 12, 'TESTS-OK has the yespower lines');
  for (const line of lines) {
    const m = /^yespower\((\d+), (\d+), (\d+), (NULL|"([^"]*)"|BSTY)\) = (.*)$/.exec(line);
    const want = m[6].replace(/ /g, '');
    const spec = { version: Number(m[1]), N: Number(m[2]), r: Number(m[3]) };
    if (m[4] === 'BSTY')
      spec.pers = src;		// the input is its own personalization
    else if (m[5] !== undefined)
      spec.pers = m[5];
    assert.strictEqual(y.yespower(src, spec).toString('hex'), want, line);
    assert.strictEqual((await y.yespowerAsync(src, spec)).toString('hex'),
        want, line + ' (async)');
  }
});

test('yespower: batches give each input\'s own answer', async () => {
  const inputs = [];
  for (let i = 0; i < 6; i++)
    inputs.push(Buffer.from(`batch input ${i} `.repeat(i + 1)));
  for (const spec of [undefined, 'yescryptr16', 'power2b', 'yescrypt',
    { version: '0.5', N: 1024, r: 8, pers: 'x' }]) {
    const one = inputs.map((b) => y.yespower(b, spec).toString('hex'));
    assert.deepStrictEqual(
        y.yespowerBatch(inputs, spec).map((b) => b.toString('hex')), one);
    assert.deepStrictEqual(
        (await y.yespowerBatchAsync(inputs, spec)).map((b) => b.toString('hex')),
        one);
  }
  assert.deepStrictEqual(y.yespowerBatch([]), []);
});

test('presets: real headers of test/vectors/chains.txt, per function', () => {
  // PRESET name version N r pers HEADER hex EXPECT raw|? ...
  const lines = read('test/vectors/chains.txt').split('\n')
      .filter((l) => l.startsWith('PRESET '));
  let n = 0;
  for (const line of lines) {
    const f = line.split(/\s+/);
    const name = f[1];
    const header = Buffer.from(f[f.indexOf('HEADER') + 1], 'hex');
    const want = f[f.indexOf('EXPECT') + 1];
    if (!/^[0-9a-f]{64}$/.test(want))
      continue;		// a target only: tests-chains checks those
    assert.ok(typeof y[name] === 'function', `a function for ${name}`);
    assert.strictEqual(y[name](header).toString('hex'), want, `${name}`);
    n++;
  }
  assert.ok(n >= 30, `${n} published hashes checked`);
  // the capitalized names are the same functions' answers
  const h = Buffer.alloc(80, 7);
  assert.deepStrictEqual(y.yescryptR16(h), y.yescryptr16(h));
  assert.deepStrictEqual(y.yespowerR16(h), y.yespowerr16(h));
  assert.deepStrictEqual(y.power2b(h), y.yespower(h, 'power2b'));
});

test('sha256d: against node:crypto\'s SHA-256, twice', async () => {
  const crypto = require('crypto');
  const sha = (b) => crypto.createHash('sha256').update(b).digest();
  for (const len of [0, 1, 55, 56, 63, 64, 65, 80, 119, 120, 1000]) {
    const b = Buffer.alloc(len);
    for (let i = 0; i < len; i++)
      b[i] = (i * 7 + len) & 0xff;
    const want = sha(sha(b)).toString('hex');
    assert.strictEqual(y.sha256d(b).toString('hex'), want, `${len} bytes`);
    assert.strictEqual((await y.sha256dAsync(b)).toString('hex'), want);
  }
});

// ---- RandomX ----

// rx-published.h: tests.cpp's five inputs, keys and v1/v2 hashes
function published() {
  const h = read('test/randomx/rx-published.h');
  const strings = (name) => {
    const body = new RegExp(`${name}\\[5\\] = \\{([^}]*)\\}`).exec(h)[1];
    return [...body.matchAll(/"([^"]*)"|NULL/g)].map((m) =>
      m[0] === 'NULL' ? null : m[1]);
  };
  // input_e_hex: adjacent string literals
  const eBody = /input_e_hex\[\] =([^;]*);/.exec(h)[1];
  const eHex = [...eBody.matchAll(/"([0-9a-f]*)"/g)].map((m) => m[1]).join('');
  const inputs = strings('published_input').map((s) =>
    s === null ? Buffer.from(eHex, 'hex') : Buffer.from(s));
  return {
    inputs,
    // tests.cpp: the first three with "test key 000", the rest "test key 001"
    keys: inputs.map((_, i) => Buffer.from(i < 3 ? 'test key 000' : 'test key 001')),
    v1: strings('published_v1'),
    v2: strings('published_v2'),
  };
}

// rx-vm-vectors.txt: hash V2 KEY INPUT HASH COMMITMENT
function vectorHashes() {
  return read('test/randomx/rx-vm-vectors.txt').split('\n')
      .filter((l) => l.startsWith('hash ')).map((l) => {
        const f = l.split(' ');
        const hex = (x) => Buffer.from(x === '-' ? '' : x, 'hex');
        return { v2: f[1] === '1', key: hex(f[2]), input: hex(f[3]),
          hash: f[4], com: f[5] };
      });
}

test('RandomX: the reference\'s published hashes, v1 and v2, every call', async () => {
  const p = published();
  assert.strictEqual(p.inputs.length, 5);
  for (const v2 of [false, true]) {
    const want = v2 ? p.v2 : p.v1;
    const rx = new y.RandomX(p.keys[0], { v2 });
    assert.strictEqual(rx.v2, v2);
    assert.strictEqual(rx.mode, 'light');
    for (let i = 0; i < 5; i++) {
      if (i === 3)
        rx.setKey(p.keys[3]);
      assert.strictEqual(rx.hash(p.inputs[i]).toString('hex'), want[i],
          `v${v2 ? 2 : 1} ${i}`);
      assert.strictEqual((await rx.hashAsync(p.inputs[i])).toString('hex'),
          want[i]);
    }
    // first/next/last over the inputs of one key
    rx.setKey(p.keys[0]);
    assert.deepStrictEqual(rx.hashMany(p.inputs.slice(0, 3))
        .map((b) => b.toString('hex')), want.slice(0, 3));
    assert.deepStrictEqual((await rx.hashManyAsync(p.inputs.slice(0, 3)))
        .map((b) => b.toString('hex')), want.slice(0, 3));
    assert.deepStrictEqual(rx.hashMany([]), []);
    assert.deepStrictEqual(rx.hashMany([p.inputs[1]])
        .map((b) => b.toString('hex')), [want[1]]);
    rx.close();
  }
});

test('RandomX: the vector file\'s hashes and v2 commitments', async () => {
  const vs = vectorHashes();
  assert.ok(vs.length >= 4, `${vs.length} vectors`);
  const objs = new Map();
  for (const v of vs) {
    const id = `${v.v2}:${v.key.toString('hex')}`;
    if (!objs.has(id))
      objs.set(id, await y.RandomX.create(v.key, { v2: v.v2 }));
    const rx = objs.get(id);
    assert.strictEqual(rx.hash(v.input).toString('hex'), v.hash);
    assert.strictEqual(rx.commitment(v.input).toString('hex'), v.com);
    assert.strictEqual((await rx.commitmentAsync(v.input)).toString('hex'),
        v.com);
    assert.strictEqual(y.randomxCommitment(v.input,
        Buffer.from(v.hash, 'hex')).toString('hex'), v.com);
  }
  for (const rx of objs.values())
    rx.close();
});

test('randomx(data, seed, variant): node-cryptonight-hashing\'s shape', async () => {
  // node-multi-hashing-aesni's tests/rx0.txt: its seed is the hex string's
  // 64 ASCII bytes, as its test passes it
  const seed = Buffer.from('000000000000000100000000000000000000000f000000042000000000000000');
  const want = '045a80cb878aeb8648f27706fc9dcfae2be284e609f17e8a66566c23c48359c0';
  const data = Buffer.from('This is a test');
  assert.strictEqual(y.randomx(data, seed, 0).toString('hex'), want);
  assert.strictEqual(y.randomx(data, seed).toString('hex'), want);
  assert.strictEqual((await y.randomxAsync(data, seed)).toString('hex'), want);
  // "rx/2" is refused (other addons' rx/2 answers are not v2.0's)
  const p = published();
  assert.throws(() => y.randomx(p.inputs[0], p.keys[0], 'rx/2'), RangeError);
  await assert.rejects(y.randomxAsync(p.inputs[1], p.keys[0], 'rx/2'),
      RangeError);
  // more seeds than slots: the evicted ones are built again, same answers
  y.setRandomxCacheSize(1);
  assert.strictEqual(y.randomx(p.inputs[3], p.keys[3]).toString('hex'), p.v1[3]);
  const both = await Promise.all([y.randomxAsync(p.inputs[0], p.keys[0]),
    y.randomxAsync(p.inputs[3], p.keys[3])]);
  assert.deepStrictEqual(both.map((b) => b.toString('hex')), [p.v1[0], p.v1[3]]);
  y.setRandomxCacheSize(4);
});
