'use strict';
/*
 * bench.js: shares verified per second from Node against the C library on
 * the same work (node/bench/c-verify.c), one and two at a time: RandomX
 * light and full mode, one yespower preset.  A benchmark, not a test: it
 * prints figures and asserts nothing about speed.
 *
 *   node node/bench/bench.js build/node/c-verify [light,full,yespower]
 *
 * Environment: BENCH_REPEAT (runs of each side, C and Node alternating,
 * the medians kept; default 3), BENCH_LIGHT, BENCH_FULL, BENCH_YESPOWER
 * (shares per run), BENCH_PRESET (default yespowerr16), BENCH_V2=1
 * (RandomX v2).  Node builds its key once, C once per run (a process
 * each); a run is 1 and then 2 at a time.  Node's "2 at a time" is two
 * promise chains through the addon's runners on libuv's pool.  Both
 * sides count the shares that meet the same target: the counts must
 * agree.
 *
 * The rate by the wall clock is what a pool sees; the shares per CPU
 * second (user + system time of the whole process) are steadier on a
 * machine others share.
 */
const { execFileSync } = require('child_process');
const os = require('os');
const y = require('..');

const cVerify = process.argv[2];
const which = (process.argv[3] || 'light,full,yespower').split(',');
const repeat = Number(process.env.BENCH_REPEAT) || 3;
const v2 = process.env.BENCH_V2 === '1';
const preset = process.env.BENCH_PRESET || 'yespowerr16';
const counts = {
  light: Number(process.env.BENCH_LIGHT) || 200,
  full: Number(process.env.BENCH_FULL) || 2000,
  yespower: Number(process.env.BENCH_YESPOWER) || 400,
};
const KEY = Buffer.from('node bench key');
const BLOB = 76;
const NONCE_AT = 39;
const LIMIT = (1n << 64n) / 16n;

function blobOf(nonce) {
  const b = Buffer.alloc(BLOB);
  for (let i = 0; i < BLOB; i++)
    b[i] = (i * 7 + 1) & 0xff;
  b.writeUInt32LE(nonce >>> 0, NONCE_AT);
  return b;
}

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/* count shares through hash (a promise), n chains at a time */
async function runNode(hash, count, n) {
  let next = 0;
  let valid = 0;
  const chain = async () => {
    while (next < count) {
      const h = await hash(blobOf(next++));
      if (h.readBigUInt64LE(24) < LIMIT)
        valid++;
    }
  };
  const t0 = process.hrtime.bigint();
  const c0 = cpuSeconds();
  await Promise.all(Array.from({ length: n }, chain));
  const t = Number(process.hrtime.bigint() - t0) / 1e9;
  return { threads: n, rate: count / t, cpu: cpuSeconds() - c0, valid };
}

function runC(args) {
  const out = execFileSync(cVerify, args, { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => {
    const f = l.split(' ');
    return { threads: Number(f[1]), rate: Number(f[3]), cpu: Number(f[5]),
      valid: Number(f[7]) };
  });
}

function median(xs) {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

function best(runs, n, count) {
  const mine = runs.filter((r) => r.threads === n);
  return {
    rate: median(mine.map((r) => r.rate)),
    perCpu: median(mine.map((r) => count / r.cpu)),
    valid: mine[0].valid,
  };
}

function report(name, count, c, js) {
  console.log(`\n${name}: ${count} shares a run, medians of ${repeat} alternating runs`);
  console.log('            shares/s (wall)     shares per CPU-second   valid');
  for (const n of [1, 2]) {
    const a = best(c, n, count);
    const b = best(js, n, count);
    console.log(`${n} at a time  C ${a.rate.toFixed(2).padStart(8)}  ` +
        `Node ${b.rate.toFixed(2).padStart(8)} (${(100 * b.rate / a.rate).toFixed(1)}%)  ` +
        `C ${a.perCpu.toFixed(2)} Node ${b.perCpu.toFixed(2)} ` +
        `(${(100 * b.perCpu / a.perCpu).toFixed(1)}%)  ${a.valid}/${b.valid}` +
        (a.valid === b.valid ? '' : '  DIFFERENT'));
  }
  const s = (runs) => best(runs, 2, count).rate / best(runs, 1, count).rate;
  console.log(`two at a time over one: C ${s(c).toFixed(2)}x, Node ${s(js).toFixed(2)}x`);
}

async function main() {
  console.log(`CPU: ${os.cpus()[0].model}, ${os.cpus().length} online; ` +
      `load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`Node ${process.version}, UV_THREADPOOL_SIZE ` +
      `${process.env.UV_THREADPOOL_SIZE || 4}, RandomX ${v2 ? 'v2' : 'v1'}`);
  for (const mode of which) {
    const count = counts[mode];
    const c = [];
    const js = [];
    let hash;
    let rx = null;
    let cArgs;
    if (mode === 'yespower') {
      cArgs = ['yespower', preset, '1,2', String(count)];
      hash = (b) => y.yespowerAsync(b, preset);
    } else {
      cArgs = ['rx', mode, v2 ? 'v2' : 'v1', '1,2', String(count)];
      rx = await y.RandomX.create(KEY, { mode, v2 });
      hash = (b) => rx.hashAsync(b);
    }
    // C and Node alternate, C first in even rounds and Node first in odd
    // ones, so that the machine's drift falls on both alike.
    for (let r = 0; r < repeat; r++) {
      for (const side of r % 2 ? ['node', 'c'] : ['c', 'node']) {
        if (side === 'c') {
          c.push(...runC(cArgs));
        } else {
          for (const n of [1, 2])
            js.push(await runNode(hash, count, n));
        }
      }
    }
    if (rx)
      rx.close();
    report(mode === 'yespower' ? `yespower preset ${preset}` :
      `RandomX ${mode} mode`, count, c, js);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
