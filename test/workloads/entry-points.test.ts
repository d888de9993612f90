import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadWithout } from '../support/load';

// The compiled entry point, as an installed package loads it (`npm test` runs `tsc -b` first).
const ENTRY = join(__dirname, '..', '..', 'lib', 'src', 'workloads', 'index.js');
const ROOT_ENTRY = join(__dirname, '..', '..', 'lib', 'src', 'index.js');

function load(hidden: string[], entry = ENTRY): { status: number | null; stderr: string } {
  return loadWithout(hidden, entry);
}

(existsSync(ENTRY) ? describe : describe.skip)('cdk-hybrid-windows/workloads and cdk8s-plus-33', () => {
  test('without it (a project on cdk8s-plus-28) names the major the project has and what to install', () => {
    const { status, stderr } = load(['cdk8s-plus-33']);
    expect(status).not.toBe(0);
    expect(stderr).toContain('[cdk-hybrid-windows/workloads] cdk8s-plus-33 is not installed (this project has cdk8s-plus-28), and the Windows workload constructs build on it. '
      + 'Fix: npm install cdk8s-plus-33 (it sits beside another major; WindowsPod also takes cdk8s-plus-28 workloads).');
  });

  test('without any major, says what to install', () => {
    const { stderr } = load(['cdk8s-plus-33', 'cdk8s-plus-28']);
    expect(stderr).toContain('[cdk-hybrid-windows/workloads] cdk8s-plus-33 is not installed, and the Windows workload constructs build on it.');
  });

  test('loads without cdk8s-plus-28: only WindowsPod on a cdk8s-plus-28 object needs it', () => {
    expect(load(['cdk8s-plus-28'])).toEqual({ status: 0, stderr: '' });
  });

  test('with it, loads', () => {
    expect(load([])).toEqual({ status: 0, stderr: '' });
  });

  test('the package root loads without it at run time: cluster-only users never load cdk8s-plus (issue 9.7)', () => {
    expect(load(['cdk8s-plus-33', 'cdk8s-plus-28'], ROOT_ENTRY)).toEqual({ status: 0, stderr: '' });
  });
});
