/**
 * Every test's temporary folders (`mkdtempSync(join(tmpdir(), …))`, the CLI children's files) go
 * under one folder per run, removed by scratch-teardown.js, so that `npm test` leaves nothing in
 * the machine's /tmp. `os.tmpdir()` reads TMPDIR on each call, and the jest workers and the
 * processes the tests start inherit it, as they start after this runs.
 */
const { mkdtempSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');

module.exports = async () => {
  process.env.CDK_HYBRID_WINDOWS_TEST_TMP = process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'cdk-hybrid-windows-test-'));
};
