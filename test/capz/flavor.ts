import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlStream } from '../../src/cli/kubectl-yaml';
import { K8sObject } from '../support/synth';

/**
 * CAPZ v1.26.0's Windows flavor, rendered (test/fixtures/capz/README.md), as kubectl reads it: the
 * valid neighbour every CAPZ rule test breaks one field of.
 */
export function capzFlavor(): K8sObject[] {
  return parseYamlStream(readFileSync(join(__dirname, '..', 'fixtures', 'capz', 'cluster-template-windows.yaml'), 'utf8')).documents.map((d) => d.value as K8sObject);
}

/** The object of a kind and name in a list. */
export const find = (list: K8sObject[], kind: string, name: string): K8sObject => {
  const found = list.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

/** The flavor's Windows pool: its MachineDeployment, KubeadmConfigTemplate and AzureMachineTemplate. */
export const WIN = 'capz-win-md-win';

/** A ClusterResourceSet for the flavor's cluster (its label cni-windows: calico) applying one ConfigMap that holds `yaml`. */
export function addonSet(yaml: string): K8sObject[] {
  return [
    { apiVersion: 'addons.cluster.x-k8s.io/v1beta2', kind: 'ClusterResourceSet', metadata: { name: 'calico-windows', namespace: 'default' }, spec: { clusterSelector: { matchLabels: { 'cni-windows': 'calico' } }, resources: [{ kind: 'ConfigMap', name: 'calico-windows' }], strategy: 'ApplyOnce' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'calico-windows', namespace: 'default' }, data: { 'addon.yaml': yaml } },
  ];
}
