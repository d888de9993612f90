import { App } from 'cdk8s';
import { buildFiftyPools } from '../bench/fifty-pools';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { buildRemoteCluster } from '../examples/remote/main';
import { buildCapzCluster } from '../examples/capz/main';
import { WindowsAppChart } from '../examples/windows-app/main';
import { describeWithCrds } from './support/crd-schemas';
import { exampleProblems, readOnlyRootWrites } from './support/example-checks';
import { K8sObject, synthObjects } from './support/synth';

/** Every example app, as tests can build it. */
const EXAMPLES: Record<string, () => K8sObject[]> = {
  'k0smotron-aws (default example)': () => {
    const app = new App();
    buildCluster(app);
    return synthObjects(app);
  },
  'windows-app': () => {
    const app = new App();
    new WindowsAppChart(app, 'windows-app');
    return synthObjects(app);
  },
  remote: () => {
    const app = new App();
    buildRemoteCluster(app);
    return synthObjects(app);
  },
  capz: () => {
    const app = new App();
    buildCapzCluster(app);
    return synthObjects(app);
  },
  'fifty-pools (benchmark)': () => {
    const app = new App();
    buildFiftyPools(app);
    return synthObjects(app);
  },
};

describeWithCrds('every object the examples synthesize passes the rules as YAML, strict CRD validation and the CRDs\' CEL rules, with writable paths under a read-only root', () => {
  test.each(Object.keys(EXAMPLES))('%s', (name) => {
    const objects = EXAMPLES[name]();
    expect(objects.length).toBeGreaterThan(0);
    expect(exampleProblems(objects)).toEqual([]);
  });
});

describe('the writable-path check (the docs snippets get it too)', () => {
  // nginxinc/docker-nginx-unprivileged 1.27.3 mainline/alpine-slim/Dockerfile moves nginx's pid
  // file and temp paths to /tmp; cdk8s-plus mounts the root read-only by default.
  const frontend = (volumeMounts: object[]): K8sObject => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'frontend' },
    spec: { template: { spec: { containers: [{ name: 'main', image: 'nginxinc/nginx-unprivileged:1.27-alpine', securityContext: { readOnlyRootFilesystem: true }, volumeMounts }] } } },
  });
  test('finds nginx-unprivileged without a writable /tmp, and accepts it with one', () => {
    expect(readOnlyRootWrites([frontend([])])).toEqual([expect.stringContaining('Deployment/frontend containers main: image nginxinc/nginx-unprivileged:1.27-alpine writes to /tmp')]);
    expect(readOnlyRootWrites([frontend([{ name: 'tmp', mountPath: '/tmp', readOnly: true }])])).toHaveLength(1);
    expect(readOnlyRootWrites([frontend([{ name: 'tmp', mountPath: '/tmp' }])])).toEqual([]);
  });
});
