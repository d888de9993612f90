import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUBJECTS } from './support/props-spec';

// The generator is a plain script, so that `node scripts/props-doc.js` needs no test tooling.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const doc = require('../scripts/props-doc.js') as {
  render(modules: unknown): string;
  modules(load: (name: string) => unknown): unknown;
};

describe('the props reference (docs/props.md)', () => {
  // Every entry point of package.json, from the sources.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const text = doc.render(doc.modules((folder) => require(join(__dirname, '..', 'src', folder))));

  test('is the one the specs render', () => {
    expect(readFileSync(join(__dirname, '..', 'docs', 'props.md'), 'utf8')).toBe(text);
  });

  test('shows each converted construct\'s props with what they take', () => {
    for (const heading of ['WindowsWorkload', 'WindowsPodOptions', 'WindowsExporter', 'HybridEksCluster', 'EksWindowsNodeGroup', 'HybridEksStack', 'HybridClusterInfra']) {
      expect(text).toContain(`## ${heading} (`);
    }
    expect(text).toContain('| `port` | no | a whole number from 1 to 65535 |');
    expect(text).toContain('| `controlPlaneLogRetentionDays` | no | one of 0, 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653 |');
    expect(text).toContain('`network` and `existingNetwork` exclude each other.');
    // The Cluster API constructs (root entry point): a nested prop, and the pools' exclusion.
    expect(text).toContain('## RemoteWindowsWorkerPool (`cdk-hybrid-windows`)');
    expect(text).toContain('| `controlPlane.replicas` | no | a number; the `control-plane` rule judges its value |');
    expect(text).toContain('`replicas` and `autoscaling` exclude each other.');
    // The CAPZ constructs (cdk-hybrid-windows/capz), the base's entries composed, never restated.
    expect(text).toContain('## CapzWindowsWorkerPool (`cdk-hybrid-windows/capz`)');
    expect(text).toContain('| `cloudProvider` | yes | one of `CapzCloudProviderInstall.HELM_CHART_PROXY`, `CapzCloudProviderInstall.HELM_INSTALL` |');
  });

  test('is a page of the API reference (typedoc projectDocuments; `npm run docs:api` writes it to docs/api/documents/props.md)', () => {
    const typedoc = JSON.parse(readFileSync(join(__dirname, '..', 'typedoc.json'), 'utf8')) as { projectDocuments?: string[] };
    expect(typedoc.projectDocuments).toContain('docs/props.md');
  });

  test('shows the spec of every construct the generated props tests cover, with a row per prop', () => {
    for (const { spec } of SUBJECTS) {
      const section = text.split(`\n## ${spec.name} (`)[1]?.split('\n## ')[0];
      expect({ spec: spec.name, shown: section !== undefined }).toEqual({ spec: spec.name, shown: true });
      for (const prop of Object.keys(spec.entries)) expect(section).toContain(`| \`${prop}\` |`);
    }
  });
});
