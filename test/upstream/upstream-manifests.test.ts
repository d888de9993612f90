import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Include } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { formatViolation, validateManifests } from '../../src';
import { HybridChart, podTemplatesOf } from '../../src/workloads';
import { synthObjects } from '../support/synth';

/**
 * Real upstream manifests (test/fixtures/upstream, sources in its README) are valid input: they
 * must pass HybridChart's pinning and checks and `validateManifests` unchanged.
 */
const FIXTURES = join(__dirname, '..', 'fixtures', 'upstream');
const FILES = ['calico-windows-vxlan.yaml', 'ingress-nginx-controller.yaml', 'cert-manager.yaml', 'node-exporter-daemonset.yaml', 'kubectl-list.yaml'];

function read(file: string) {
  return parseAllDocuments(readFileSync(join(FIXTURES, file), 'utf8')).map((d) => d.toJS()).filter((o) => o !== null);
}

describe.each(FILES)('%s', (file) => {
  test('validateManifests accepts it', () => {
    expect(validateManifests(read(file)).map(formatViolation)).toEqual([]);
  });

  test('HybridChart includes it, pins what asks for no OS to Linux and leaves the rest as written', () => {
    const app = new App();
    new Include(new HybridChart(app, 'apps'), 'upstream', { url: join(FIXTURES, file) });
    const written = synthObjects(app);
    const original = read(file);
    expect(written).toHaveLength(original.length);
    written.forEach((obj, i) => {
      const before = podTemplatesOf(original[i]);
      podTemplatesOf(obj).forEach((location, j) => {
        const was = before[j].spec;
        if (was.nodeSelector?.['kubernetes.io/os'] === undefined) {
          expect(location.spec.os).toEqual({ name: 'linux' });
          expect(location.spec.nodeSelector['kubernetes.io/os']).toBe('linux');
        } else {
          expect(location.spec.nodeSelector).toEqual(was.nodeSelector);
          expect(location.spec.os).toEqual(was.os);
        }
      });
    });
  });
});
