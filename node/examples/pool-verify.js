'use strict';
/*
 * pool-verify.js: what a pool server does with shares, from many promises
 * at once, across a RandomX seed change.
 *
 * RandomX shares: the reference's published inputs under "test key 000"
 * (the first job's seed) and "test key 001" (the next job's), verified
 * through node-cryptonight-hashing's randomxAsync(blob, seed) and through
 * a RandomX object whose key changes while its shares are in flight.
 * yespower shares: real block headers of test/vectors/chains.txt through
 * the per-preset functions, each meeting its block's nBits target.
 * Every answer is compared with the published one; exit status 1 on any
 * wrong answer.  Run: node node/examples/pool-verify.js [rounds]
 */
const fs = require('fs');
const path = require('path');
const y = require('..');

const top = path.join(__dirname, '..', '..');

function publishedRandomX() {
  const h = fs.readFileSync(path.join(top, 'test/randomx/rx-published.h'), 'utf8');
  const strings = (name) => {
    const body = new RegExp(`${name}\\[5\\] = \\{([^}]*)\\}`).exec(h)[1];
    return [...body.matchAll(/"([^"]*)"|NULL/g)].map((m) => m[1]);
  };
  const inputs = strings('published_input');
  const v1 = strings('published_v1');
  return [0, 1, 2, 3].map((i) => ({
    seed: Buffer.from(i < 3 ? 'test key 000' : 'test key 001'),
    blob: Buffer.from(inputs[i]),
    want: v1[i],
  }));
}

function chainShares() {
  return fs.readFileSync(path.join(top, 'test/vectors/chains.txt'), 'utf8')
      .split('\n').filter((l) => l.startsWith('PRESET ')).map((l) => {
        const f = l.split(/\s+/);
        const at = (k) => f[f.indexOf(k) + 1];
        return { preset: f[1], header: Buffer.from(at('HEADER'), 'hex'),
          want: at('EXPECT'), bits: at('TARGET_BITS') };
      }).filter((s) => /^[0-9a-f]{64}$/.test(s.want) && /^[0-9a-f]{8}$/.test(s.bits));
}

/* nBits to a 256-bit target; the hash read as a little-endian number. */
function target(bits) {
  const n = parseInt(bits, 16);
  return BigInt(n & 0x7fffff) << BigInt(8 * ((n >>> 24) - 3));
}
function meets(hash, bits) {
  return BigInt('0x' + Buffer.from(hash).reverse().toString('hex')) <= target(bits);
}

async function main(rounds) {
  const rx = publishedRandomX();
  const ys = chainShares();
  let ok = 0;
  const bad = [];
  const check = (what, got, want, valid = true) => {
    if (got === want && valid)
      ok++;
    else
      bad.push(`${what}: ${got}`);
  };

  // A pool's own object on the current seed; the seed changes while its
  // shares are being verified: shares already received use the old seed.
  const verifier = await y.RandomX.create(rx[0].seed);
  const pending = [];
  for (let r = 0; r < rounds; r++) {
    for (const s of rx.slice(0, 3)) {
      pending.push(verifier.hashAsync(s.blob).then((h) =>
        check('object, old seed', h.toString('hex'), s.want)));
      pending.push(y.randomxAsync(s.blob, s.seed).then((h) =>
        check('randomxAsync, old seed', h.toString('hex'), s.want)));
    }
    for (const s of ys)
      pending.push(y[s.preset + 'Async'](s.header).then((h) =>
        check(`${s.preset} share`, h.toString('hex'), s.want, meets(h, s.bits))));
  }
  const change = verifier.setKeyAsync(rx[3].seed);
  for (let r = 0; r < rounds; r++) {	// shares of the new job, by seed
    pending.push(y.randomxAsync(rx[3].blob, rx[3].seed).then((h) =>
      check('randomxAsync, new seed', h.toString('hex'), rx[3].want)));
    pending.push(y.randomxAsync(rx[0].blob, rx[0].seed).then((h) =>
      check('randomxAsync, late share of the old seed', h.toString('hex'), rx[0].want)));
  }
  await change;
  for (let r = 0; r < rounds; r++)
    pending.push(verifier.hashAsync(rx[3].blob).then((h) =>
      check('object, new seed', h.toString('hex'), rx[3].want)));
  await Promise.all(pending);
  verifier.close();
  return { ok, bad };
}

module.exports = main;

if (require.main === module) {
  main(Number(process.argv[2]) || 4).then(({ ok, bad }) => {
    for (const b of bad)
      console.log('WRONG', b);
    console.log(`pool-verify: ${ok} shares verified right, ${bad.length} wrong`);
    process.exitCode = bad.length ? 1 : 0;
  });
}
