import { JsonPatch } from 'cdk8s';
import { hybridCluster } from './fixture';
import { remoteApp } from '../remote/fixture';

/**
 * Issue 24 point 15: the API server's OS-independent object validation (`object-meta`,
 * k8s.io/apimachinery v0.34.0 pkg/api/validation/objectmeta.go ValidateObjectMetaAccessor and
 * generic.go NameIsDNSSubdomain) judges the objects the cluster constructs write at synth, not
 * only workloads: kubectl apply would refuse a Cluster or a MachineDeployment named so.
 */
describe('object-meta judges the cluster constructs\' objects', () => {
  // The fix is object-meta's own ("change metadata.name to what the API server takes"): no other
  // rule reads a MachineHealthCheck's name.
  test('a HybridCluster pool\'s object patched to a name the API server refuses fails synth with the object-meta fix', () => {
    const f = hybridCluster();
    f.windows!.machineHealthCheck!.addJsonPatch(JsonPatch.replace('/metadata/name', 'Prod_Win'));
    expect(() => f.app.synth()).toThrow(/\[mgmt\/prod\/win\] MachineHealthCheck Prod_Win: MachineHealthCheck name "Prod_Win" must be lower-case letters, digits, "-" and "\."[^\n]*Fix: change metadata\.name to what the API server takes/);
  });

  test('a pool\'s MachineDeployment with a label value the API server refuses fails synth', () => {
    const f = hybridCluster();
    f.windows!.machineDeployments[0].addJsonPatch(JsonPatch.add('/metadata/labels', { tier: 'web,zone=eu' }));
    expect(() => f.app.synth()).toThrow(/label tier="web,zone=eu" has a value that is not alphanumeric/);
  });

  test('a RemoteHybridCluster object patched with an annotation key the API server refuses fails synth', () => {
    const f = remoteApp();
    f.cluster.controlPlane.addJsonPatch(JsonPatch.add('/metadata/annotations', { 'example.com/a/b': 'x' }));
    expect(() => f.app.synth()).toThrow(/annotation key "example.com\/a\/b" has more than one "\/"[^\n]*Fix: change metadata\.annotations/);
  });

  test('the valid clusters still synthesize', () => {
    expect(() => hybridCluster().app.synth()).not.toThrow();
    expect(() => remoteApp().app.synth()).not.toThrow();
  });
});
