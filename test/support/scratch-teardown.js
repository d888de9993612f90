/** Removes the run's temporary folder that scratch-setup.js made. */
const { rmSync } = require('fs');

module.exports = async () => {
  rmSync(process.env.CDK_HYBRID_WINDOWS_TEST_TMP, { recursive: true, force: true });
};
