import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadWithout } from '../support/load';

// The compiled entry points, as an installed package loads them (`npm test` runs `tsc -b` first).
const LIB = join(__dirname, '..', '..', 'lib', 'src');

(existsSync(join(LIB, 'aws', 'index.js')) ? describe : describe.skip)('cdk-hybrid-windows/aws and /eks without CDK Terrain\'s package names', () => {
  test.each(['aws', 'eks'])('%s, in a cdktf project without the aliases, says which names to install', (entry) => {
    const fixes: Record<string, string> = {
      'cdktn': 'in a CDK Terrain project, npm install cdktn; in a cdktf 0.21 project, install cdktf under this name: npm install cdktn@npm:cdktf@^0.21.0',
      '@cdktn/provider-aws': 'in a CDK Terrain project, npm install @cdktn/provider-aws; in a cdktf 0.21 project, install cdktf\'s packages under these names: '
        + 'npm install cdktn@npm:cdktf@^0.21.0 @cdktn/provider-aws@npm:@cdktf/provider-aws@^21.22.1',
    };
    for (const [missing, fix] of Object.entries(fixes)) {
      const { status, stderr } = loadWithout([missing], join(LIB, entry, 'index.js'));
      expect(status).not.toBe(0);
      expect(stderr).toContain(`[cdk-hybrid-windows] ${missing} is not installed, and the Terraform stacks build on it. Fix: ${fix}`);
    }
  });

  test.each(['aws', 'eks'])('%s loads with them', (entry) => {
    expect(loadWithout([], join(LIB, entry, 'index.js'))).toEqual({ status: 0, stderr: '' });
  });
});
