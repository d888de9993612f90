import { App } from 'cdk8s';
import { buildFiftyPools } from '../bench/fifty-pools';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { buildRemoteCluster } from '../examples/remote/main';
import { WindowsAppChart } from '../examples/windows-app/main';
import { crdViolations, describeWithCrds } from './support/crd-schemas';
import { K8sObject, synthObjects } from './support/synth';

/** Built-in API groups: the API server serves them without a CRD. */
const BUILT_IN_GROUP = /^(v1|(apps|batch|policy|autoscaling|node\.k8s\.io|rbac\.authorization\.k8s\.io|networking\.k8s\.io|storage\.k8s\.io|scheduling\.k8s\.io)\/.+)$/;

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
  'fifty-pools (benchmark)': () => {
    const app = new App();
    buildFiftyPools(app);
    return synthObjects(app);
  },
};

describeWithCrds('every object the examples synthesize passes strict CRD validation and the CRDs\' CEL rules', () => {
  test.each(Object.keys(EXAMPLES))('%s', (name) => {
    const objects = EXAMPLES[name]();
    expect(objects.length).toBeGreaterThan(0);
    const custom = objects.filter((o) => !BUILT_IN_GROUP.test(o.apiVersion));
    expect(custom.flatMap((o) => crdViolations(o))).toEqual([]);
  });
});
