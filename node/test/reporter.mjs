// reporter.mjs: Node's test runner reporting as the project's suites do:
// a line per failure or skip, then `node: N passed, N failed[, N skipped
// (why)]`.  Suites (describe) are not counted, their tests are.
export default async function* reporter(source) {
  let passed = 0;
  let failed = 0;
  const skipped = [];
  for await (const event of source) {
    const d = event.data;
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      if (d.details && d.details.type === 'suite')
        continue;
      if (d.skip !== undefined && d.skip !== false) {
        skipped.push(typeof d.skip === 'string' ? d.skip : d.name);
        yield `node: skipped: ${d.name} (${d.skip})\n`;
      } else if (event.type === 'test:pass') {
        passed++;
      } else {
        failed++;
        const e = d.details && d.details.error;
        const cause = e && (e.cause || e);
        yield `node: FAILED: ${d.name} (${d.file || ''})\n` +
            `  ${String(cause && (cause.stack || cause.message) || e)
                .split('\n').slice(0, 8).join('\n  ')}\n`;
      }
    } else if (event.type === 'test:stderr' || event.type === 'test:stdout') {
      yield d.message;
    }
  }
  const why = skipped.length ? `, ${skipped.length} skipped ` +
      `(${[...new Set(skipped)].join('; ')})` : '';
  yield `node: ${passed} passed, ${failed} failed${why}\n`;
}
