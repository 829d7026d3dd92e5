'use strict';
// The runners (node/src/jobs.c): a burst of hashes is run by at most R
// pool threads, R = the CPUs online (no more than the pool has), so at
// most R hashes run at once; the process exits when the last promise
// settles; a worker terminated with hashes queued takes nothing down and
// does not wait for them; other pool work is not starved; many promises
// at once each get their own answer.  Each case that needs
// a fresh process (its own pool size, an exit to watch, a crash to
// survive) runs in a child node.
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const pkg = JSON.stringify(path.join(__dirname, '..'));

/* The CPUs online as the addon counts them (sysconf reads this file). */
function onlineCpus() {
  try {
    const list = fs.readFileSync('/sys/devices/system/cpu/online', 'utf8');
    let n = 0;
    for (const r of list.trim().split(',')) {
      const [a, b] = r.split('-').map(Number);
      n += b === undefined ? 1 : b - a + 1;
    }
    return n;
  } catch (e) {
    return os.cpus().length || 1;
  }
}
const cpus = Math.min(onlineCpus(), 256);

/* Run script in a child node; its stdout's last line as JSON. */
function child(script, env = {}, timeout = 120000) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, ...env }, encoding: 'utf8', timeout,
  });
  const ms = Date.now() - t0;
  assert.strictEqual(r.signal, null,
      `the child was killed by ${r.signal}; stderr:\n${r.stderr}`);
  assert.strictEqual(r.status, 0, `the child exited ${r.status}; stderr:\n${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return { out: JSON.parse(lines[lines.length - 1]), ms };
}

test('at most R threads hash, with a pool four times R', () => {
  // Per-thread CPU time from /proc over 200 concurrent yespowerr16
  // hashes: the threads that hashed are those with a real share of it.
  // With one work item per hash, all 4R pool threads would.
  const pool = Math.min(4 * cpus, 1024);
  const { out } = child(`
    const fs = require('fs');
    const y = require(${pkg});
    const ticks = () => {
      const m = new Map();
      for (const t of fs.readdirSync('/proc/self/task')) {
        const s = fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        m.set(t, Number(f[11]) + Number(f[12]));	// utime + stime
      }
      return m;
    };
    const data = [];
    for (let i = 0; i < 200; i++)
      data.push(Buffer.from('share ' + i));
    const want = data.map((d) => y.yespowerr16(d).toString('hex'));
    (async () => {
      const before = ticks();
      const got = await Promise.all(data.map((d) => y.yespowerr16Async(d)));
      const after = ticks();
      const per = [];
      for (const [t, v] of after)
        if (t !== String(process.pid))
          per.push(v - (before.get(t) || 0));
      const wrong = got.filter((b, i) => b.toString('hex') !== want[i]).length;
      console.log(JSON.stringify({ per, wrong }));
    })();
  `, { UV_THREADPOOL_SIZE: String(pool) });
  const total = out.per.reduce((a, b) => a + b, 0);
  const hashing = out.per.filter((v) => v >= 2 && v >= total * 0.02);
  assert.strictEqual(out.wrong, 0);
  assert.ok(total >= 10, `only ${total} ticks of CPU off the main thread`);
  assert.ok(hashing.length <= Math.min(cpus, pool),
      `${hashing.length} threads hashed (ticks ${hashing.join(' ')} of ` +
      `${total}); at most ${Math.min(cpus, pool)} wanted`);
});

test('the process exits as soon as the last promise settles', () => {
  const { out, ms } = child(`
    const y = require(${pkg});
    y.yespowerAsync(Buffer.from('x'), 'yespowerr16').then((b) =>
      console.log(JSON.stringify({ hash: b.toString('hex') })));
  `, {}, 30000);
  const want = require('..').yespowerr16(Buffer.from('x')).toString('hex');
  assert.strictEqual(out.hash, want);
  // a child that never exits is killed at 30 s and fails above
  assert.ok(ms < 25000, `the child took ${ms} ms`);
});

test('a worker terminated with hashes queued and running takes nothing down', () => {
  // Workers with yespower and RandomX calls queued are terminated at
  // several moments; then the main thread hashes as before.  A crash
  // would kill the child.
  const { out } = child(`
    const { Worker } = require('worker_threads');
    const y = require(${pkg});
    const body = (rx) => \`
      const { parentPort } = require('worker_threads');
      const y = require(${pkg.replace(/\\/g, '\\\\')});
      (async () => {
        const d = Buffer.alloc(80, 7);
        const rx = \${rx} ? await y.RandomX.create(Buffer.from('worker key')) : null;
        for (let i = 0; i < 300; i++) {
          y.yespowerAsync(d, 'yespowerr16');
          y.sha256dAsync(d);
          if (rx && i < 40)
            rx.hashAsync(d);
        }
        parentPort.postMessage('queued');
      })();
    \`;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    (async () => {
      const h0 = Date.now();
      for (let i = 0; i < 10; i++)
        y.yespowerr16(Buffer.from('time ' + i));
      const hash = (Date.now() - h0) / 10;
      const times = [];
      for (const [rx, wait] of [[0, 0], [0, 5], [0, 40], [1, 10]]) {
        const w = new Worker(body(rx), { eval: true });
        await new Promise((r) => w.once('message', r));
        await sleep(wait);
        const t0 = Date.now();
        await w.terminate();
        times.push(Date.now() - t0);
      }
      const d = Buffer.from('after the workers');
      const same = (await y.yespowerAsync(d, 'yespowerr16')).equals(
          y.yespowerr16(d));
      console.log(JSON.stringify({ same, times, hash }));
    })();
  `);
  assert.strictEqual(out.same, true);
  // A runner stops after the job it is in once the worker can no longer
  // take answers: terminate() does not wait for the 300 hashes queued
  // (a pool of 4 would take 75 hashes' time for them, or more).
  const most = Math.max(...out.times);
  assert.ok(most < 30 * Math.max(out.hash, 1), `terminate() took ` +
      `${out.times.join(', ')} ms; one hash takes ${out.hash} ms`);
});

test('other pool work is not starved by a long stream of hashes', () => {
  // One pool thread: the runner gives it back every slice, so a file
  // read queued behind 300 hashes ends long before they do (one work
  // item per hash would put it after all of them).
  const { out } = child(`
    const fs = require('fs');
    const y = require(${pkg});
    let settled = 0;
    const d = Buffer.alloc(80, 1);
    const all = [];
    for (let i = 0; i < 300; i++)
      all.push(y.yespowerAsync(d, 'yespowerr16').then(() => settled++));
    fs.promises.readFile(${JSON.stringify(__filename)})
      .then(() => {
        const at = settled;
        Promise.all(all).then(() =>
          console.log(JSON.stringify({ at, total: settled })));
      });
  `, { UV_THREADPOOL_SIZE: '1' });
  assert.strictEqual(out.total, 300);
  assert.ok(out.at < 250, `the read ended after ${out.at} of 300 hashes`);
});

test('200 promises at once, of every kind, each its own answer', async () => {
  const y = require('..');
  const rx = await y.RandomX.create(Buffer.from('runners key'));
  const cheap = { N: 1024, r: 8 };
  const calls = [];
  for (let i = 0; i < 200; i++) {
    const d = Buffer.from(`input ${i}`);
    switch (i % 5) {
    case 0:
      calls.push([y.yespowerAsync(d, cheap), y.yespower(d, cheap)]);
      break;
    case 1:
      calls.push([y.sha256dAsync(d), y.sha256d(d)]);
      break;
    case 2:
      calls.push([y.yespowerBatchAsync([d, d, d], 'yespowerr16')
          .then((a) => Buffer.concat(a)),
      Buffer.concat(y.yespowerBatch([d, d, d], 'yespowerr16'))]);
      break;
    case 3:
      calls.push([rx.hashAsync(d), rx.hash(d)]);
      break;
    default:
      calls.push([y.power2bAsync(d), y.power2b(d)]);
    }
  }
  const got = await Promise.all(calls.map((c) => c[0]));
  got.forEach((b, i) => assert.ok(b.equals(calls[i][1]), `call ${i}`));
  rx.close();
});

test('worker threads and the main thread hash at once, each its own queue', () => {
  const { out } = child(`
    const { Worker } = require('worker_threads');
    const y = require(${pkg});
    const body = \`
      const { parentPort, workerData } = require('worker_threads');
      const y = require(${pkg.replace(/\\/g, '\\\\')});
      const d = Buffer.from('w' + workerData);
      Promise.all(Array.from({ length: 40 }, () => y.yespowerAsync(d, 'yespowerr16')))
        .then((a) => parentPort.postMessage(a.every((b) => b.equals(y.yespowerr16(d)))));
    \`;
    const done = [0, 1, 2].map((n) => new Promise((resolve, reject) => {
      const w = new Worker(body, { eval: true, workerData: n });
      w.once('message', resolve);
      w.once('error', reject);
    }));
    const d = Buffer.from('main');
    done.push(Promise.all(Array.from({ length: 40 },
        () => y.yespowerAsync(d, 'yespowerr16')))
      .then((a) => a.every((b) => b.equals(y.yespowerr16(d)))));
    Promise.all(done).then((ok) => console.log(JSON.stringify({ ok })));
  `);
  assert.deepStrictEqual(out.ok, [true, true, true, true]);
});
