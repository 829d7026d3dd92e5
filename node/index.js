'use strict';
/*
 * yespower for Node.js: the native addon (src/, built by the project's
 * Makefile into build/yespower.node) and the shapes pools already call.
 *
 *   yespower(data[, spec]), yespowerAsync, yespowerBatch, yespowerBatchAsync
 *   power2b(data), power2bAsync(data)
 *   presets(), presetNames
 *   one function per preset: yespowerr16(data), yescryptR16(data), ...
 *     (node-multi-hashing's shape: a Buffer in, a 32-byte Buffer out)
 *   sha256d(data), sha256dAsync(data)
 *   RandomX: new RandomX(key, { v2, mode, threads }); RandomX.create(...)
 *   randomx(data, seed[, variant]), randomxAsync(...)
 *     (node-cryptonight-hashing's shape: variant 0 or absent is rx/0,
 *     "rx/2" is refused: other addons answer it differently from v2.0, see RandomX for v2;
 *   randomxCommitment(data, hash)
 */
const path = require('path');

const native = require(process.env.YESPOWER_NODE_ADDON ||
    path.join(__dirname, 'build', 'yespower.node'));

const { RandomX } = native;

/* A RandomX object whose key is built on the thread pool. */
RandomX.create = async function create(key, options) {
  const rx = new RandomX(null, options);
  await rx.setKeyAsync(key);
  return rx;
};

const presetList = native.presets();
const presetNames = presetList.map((p) => p.name);

/*
 * The names pools call them by, beside the library's own (which are all
 * lower case): node-multi-hashing and its forks spell a few with capitals.
 */
const aliases = {
  yescryptR8: 'yescryptr8',
  yescryptR16: 'yescryptr16',
  yescryptR32: 'yescryptr32',
  yespowerR16: 'yespowerr16',
  yespowerSUGAR: 'yespowersugar',
  yespowerTIDE: 'yespowertide',
  yespowerURX: 'yespowerurx',
  yespowerADVC: 'yespoweradvc',
  yespowerLTNCG: 'yespowerltncg',
  yespowerMGPC: 'yespowermgpc',
};

const perPreset = {};
function addPreset(fname, preset) {
  perPreset[fname] = (data) => native.yespower(data, preset);
  perPreset[fname + 'Async'] = (data) => native.yespowerAsync(data, preset);
}
for (const name of presetNames) {
  if (name !== 'yespower')	/* yespower() below takes parameters too */
    addPreset(name, name);
}
for (const [alias, name] of Object.entries(aliases)) {
  if (presetNames.includes(name))
    addPreset(alias, name);
}

/* ---- node-cryptonight-hashing's randomx(data, seed, variant) ---- */

let seedSlots = 4;		/* keys kept, 256 MiB each, newest first */
const seeds = [];		/* { id, rx, pending } */

function variantV2(variant) {
  if (variant === undefined || variant === 0 || variant === 'rx/0')
    return false;
  /* MoneroOcean's addon publishes "rx/2" answers that are not RandomX
   * v2.0's (tevador/RandomX's published v2 hashes, which this library
   * computes): refused rather than answered differently.  RandomX v2 is
   * new RandomX(key, { v2: true }). */
  if (variant === 'rx/2')
    throw new RangeError('"rx/2" is refused: its answers in other addons ' +
        'differ from RandomX v2.0\'s; use new RandomX(key, { v2: true })');
  if (typeof variant !== 'number' && typeof variant !== 'string')
    throw new TypeError('variant must be a number or a string');
  /* the other chains' RandomX (Wownero, Arqma, Scala...) differ in
   * parameters this library does not have */
  throw new RangeError(`RandomX variant ${JSON.stringify(variant)} is not ` +
      'computed here: 0 (rx/0, RandomX v1)');
}

/*
 * Monero's seed hash is 32 bytes; node-cryptonight-hashing's forks differ
 * (some insist on 32, some hash any length), so any length is taken.
 */
function checkSeed(seed) {
  if (!ArrayBuffer.isView(seed))
    throw new TypeError('seed must be a Buffer');
  return Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength)
      .toString('hex');
}

function checkData(data) {
  if (!ArrayBuffer.isView(data))
    throw new TypeError('data must be a Buffer');
}

function evict(old) {
  old.closed = true;
  if (old.rx)
    old.rx.close();	/* calls in flight keep its memory until done */
}

/* The slot for this seed, newest first; the oldest goes past the limit. */
function slotFor(id) {
  const i = seeds.findIndex((s) => s.id === id);
  let s;
  if (i >= 0) {
    s = seeds[i];
    seeds.splice(i, 1);
  } else {
    s = { id, rx: null, pending: null, closed: false };
  }
  seeds.unshift(s);
  while (seeds.length > seedSlots)
    evict(seeds.pop());
  return s;
}

function randomx(data, seed, variant) {
  const v2 = variantV2(variant);
  checkData(data);
  const hex = checkSeed(seed);
  const s = slotFor((v2 ? '2:' : '0:') + hex);
  if (!s.rx)
    s.rx = new RandomX(Buffer.from(hex, 'hex'), { v2 });
  return s.rx.hash(data);
}

/*
 * The key is built once on the pool however many calls wait for it.  An
 * object the slot does not keep (the slot was evicted meanwhile, or a
 * synchronous call built one first) serves the calls that waited for it
 * and is closed after them: their hashes hold its memory until done.
 */
function buildSlot(s, key, v2) {
  s.pending = RandomX.create(key, { v2 }).then((rx) => {
    if (!s.rx && !s.closed)
      s.rx = rx;
    else
      setImmediate(() => rx.close());
    return rx;
  }, (e) => {
    s.pending = null;
    throw e;
  });
}

async function randomxAsync(data, seed, variant) {
  const v2 = variantV2(variant);
  checkData(data);
  const hex = checkSeed(seed);
  const s = slotFor((v2 ? '2:' : '0:') + hex);
  if (s.rx)
    return s.rx.hashAsync(data);
  data = Buffer.from(data);	/* ours while the key is built */
  if (!s.pending)
    buildSlot(s, Buffer.from(hex, 'hex'), v2);
  const rx = await s.pending;
  return rx.hashAsync(data);
}

/* How many seeds randomx() keeps (1 to 6; node-cryptonight-hashing's). */
function setRandomxCacheSize(n) {
  if (typeof n !== 'number')
    throw new TypeError('the cache size must be a number');
  if (!Number.isInteger(n) || n < 1 || n > 6)
    throw new RangeError('the cache size must be an integer from 1 to 6');
  seedSlots = n;
  while (seeds.length > seedSlots)
    evict(seeds.pop());
}

module.exports = {
  ...perPreset,
  yespower: native.yespower,
  yespowerAsync: native.yespowerAsync,
  yespowerBatch: native.yespowerBatch,
  yespowerBatchAsync: native.yespowerBatchAsync,
  presets: () => native.presets(),
  presetNames,
  sha256d: native.sha256d,
  sha256dAsync: native.sha256dAsync,
  RandomX,
  randomx,
  randomxAsync,
  randomxCommitment: native.randomxCommitment,
  setRandomxCacheSize,
};
