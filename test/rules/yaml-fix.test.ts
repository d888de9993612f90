import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject } from 'cdk8s';
import { CLUSTER_RULES, EKS_WORKLOAD_RULES, ManifestViolation, WORKLOAD_RULES, WindowsPlatform, validateManifests } from '../../src';
import { parseYamlStream } from '../../src/cli/kubectl-yaml';
import { yamlFixOf } from '../../src/rules/engine/rule';
import { SCHEMA_RULE } from '../../src/rules/schema/rule';
import { FixtureOptions, hybridCluster } from '../cluster/fixture';
import { remoteApp } from '../remote/fixture';
import { K8sObject } from '../support/synth';
import { addonSet, capzFlavor, find as capzFind, WIN } from '../capz/flavor';

/** CAPZ's rendered Windows flavor with one change. */
const capz = (change: (l: K8sObject[]) => void) => { const l = capzFlavor(); change(l); return { objects: l }; };

/** A valid cluster's objects as written, to break one field at a time. */
function objects(options: FixtureOptions = {}): K8sObject[] {
  return hybridCluster(options).app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => JSON.parse(JSON.stringify(o.toJson())));
}
const find = (list: K8sObject[], kind: string, prefix = ''): K8sObject => list.find((o) => o.kind === kind && o.metadata.name.startsWith(prefix))!;
const remoteObjects = (): K8sObject[] => remoteApp().app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => JSON.parse(JSON.stringify(o.toJson())));
const CLI = join(__dirname, '..', 'cli');
/** A YAML file's objects as kubectl reads them. */
const yamlFile = (...path: string[]) => parseYamlStream(readFileSync(join(CLI, ...path), 'utf8')).documents.map((d) => d.value).filter((o) => o !== null) as K8sObject[];

/** helm-web.yaml with its Windows Deployment's pod spec changed by `change`. */
function windowsPod(change: (spec: K8sObject) => void): { objects: K8sObject[] } {
  const l = yamlFile('fixtures', 'helm-web.yaml');
  change(find(l, 'Deployment').spec.template.spec);
  return { objects: l };
}

/** For each rule, objects that break it as YAML from elsewhere would (a field changed by hand). */
const BROKEN: Record<string, () => { objects: K8sObject[]; platform?: WindowsPlatform }> = {
  'unique-names': () => { const l = objects(); l.push(JSON.parse(JSON.stringify(find(l, 'Cluster')))); return { objects: l }; },
  'cluster-references': () => { const l = objects(); find(l, 'Cluster').spec.controlPlaneRef.name = 'missing'; return { objects: l }; },
  'cluster-network': () => { const l = objects(); find(l, 'K0sControlPlane').spec.k0sConfigSpec.k0s.spec.network.podCIDR = '10.200.0.0/16'; return { objects: l }; },
  'control-plane': () => { const l = objects(); find(l, 'K0sControlPlane').spec.replicas = 2; return { objects: l }; },
  'aws-cluster': () => { const l = objects(); delete find(l, 'AWSCluster').spec.region; return { objects: l }; },
  'aws-tags': () => { const l = objects(); find(l, 'AWSCluster').spec.additionalTags = { 'aws:owner': 'x' }; return { objects: l }; },
  'key-pair': () => { const l = objects(); delete find(l, 'AWSCluster').spec.sshKeyName; l.filter((o) => o.kind === 'AWSMachineTemplate').forEach((t) => delete t.spec.template.spec.sshKeyName); return { objects: l }; },
  'machine-deployment': () => { const l = objects(); find(l, 'MachineDeployment', 'prod-linux').spec.replicas = 1.5; return { objects: l }; },
  'failure-domain': () => { const l = objects(); find(l, 'MachineDeployment', 'prod-linux').spec.template.spec.failureDomain = 'eu-west-1a'; return { objects: l }; },
  'version-skew': () => {
    const l = objects({ windows: null });
    find(l, 'MachineDeployment', 'prod-linux').spec.template.spec.version = 'v1.30.0+k0s.0';
    find(l, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec.version = 'v1.30.0+k0s.0';
    return { objects: l };
  },
  'k0smotron-webhooks': () => {
    const l = objects();
    const kcp = find(l, 'K0sControlPlane');
    kcp.spec.updateStrategy = 'Recreate';
    kcp.spec.k0sConfigSpec.args = [...(kcp.spec.k0sConfigSpec.args ?? []), '--single'];
    return { objects: l };
  },
  'aws-network': () => { const l = objects(); find(l, 'K0sControlPlane').spec.k0sConfigSpec.k0s.spec.network.provider = 'kuberouter'; return { objects: l }; },
  // CAPZ v1.26.0's Windows flavor (test/fixtures/capz/README.md), one field broken.
  'unjudged-pool': () => capz((l) => { capzFind(l, 'MachineDeployment', WIN).spec.template.spec.infrastructureRef.kind = 'ExampleMachineTemplate'; capzFind(l, 'AzureMachineTemplate', WIN).kind = 'ExampleMachineTemplate'; }),
  'capz-os-type': () => capz((l) => { delete capzFind(l, 'AzureMachineTemplate', WIN).spec.template.spec.osDisk.osType; }),
  'capz-windows-names': () => capz((l) => { capzFind(l, 'MachineDeployment', WIN).metadata.name = 'win.pool'; }),
  'capz-azure-json': () => capz((l) => { capzFind(l, 'KubeadmConfigTemplate', WIN).spec.template.spec.files[0].contentFrom.secret.name = 'other-azure-json'; }),
  'cloudbase-init-fields': () => capz((l) => { capzFind(l, 'KubeadmConfigTemplate', WIN).spec.template.spec.mounts = [['LABEL=data', 'D:']]; }),
  'windows-files': () => capz((l) => { capzFind(l, 'KubeadmConfigTemplate', WIN).spec.template.spec.files[1].path = 'defender.ps1'; }),
  'windows-kubelet-service': () => capz((l) => { capzFind(l, 'AzureMachineTemplate', WIN).metadata.annotations['windows.cdk-hybrid-windows.io/kubelet-service'] = 'windows-service'; }),
  'calico-windows': () => ({ objects: [...capzFlavor(), ...addonSet('apiVersion: operator.tigera.io/v1\nkind: Installation\nmetadata: {name: default}\nspec: {calicoNetwork: {bgp: Enabled}}\n')] }),
  'calico-windows-2025': () => capz((l) => { capzFind(l, 'AzureMachineTemplate', WIN).spec.template.metadata.annotations.windowsServerVersion = 'windows-2025'; }),
  'windows-kube-proxy': () => ({ objects: [...capzFlavor(), ...addonSet('apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: kube-proxy-windows}\nspec: {template: {spec: {containers: [{name: kube-proxy, image: \'sigwindowstools/kube-proxy:v1.33.0-calico-hostprocess\'}]}}}\n')] }),
  'capz-cloud-node-manager': () => ({ objects: [...capzFlavor(), ...addonSet('apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: cloud-node-manager}\nspec: {template: {spec: {nodeSelector: {kubernetes.io/os: linux}, containers: [{name: cloud-node-manager, image: \'mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-node-manager:v1.34.9\'}]}}}\n')] }),
  'capz-cloud-provider-credential': () => capz((l) => {
    capzFind(l, 'Cluster', 'capz-win').metadata.labels['cloud-provider'] = 'azure';
    delete capzFind(l, 'AzureMachineTemplate', 'capz-win-control-plane').spec.template.spec.identity;
  }),
  'machine-naming': () => {
    const l = objects();
    l.filter((o) => o.kind === 'MachineDeployment').forEach((md) => { md.spec.machineNaming = { template: '{{ .random }}' }; });
    return { objects: l };
  },
  'remote-endpoint': () => { const l = remoteObjects(); delete find(l, 'Cluster').spec.controlPlaneEndpoint; return { objects: l }; },
  'remote-windows': () => {
    const l = remoteObjects();
    l.filter((o) => o.kind === 'PooledRemoteMachine' && o.metadata.name.includes('win')).forEach((m) => { m.spec.machine.cleanUpCommands = []; });
    return { objects: l };
  },
  'remote-pools': () => {
    const l = remoteObjects();
    const templates = l.filter((o) => o.kind === 'RemoteMachineTemplate');
    templates[1].spec.template.spec.pool = templates[0].spec.template.spec.pool;
    return { objects: l };
  },
  'windows-pool': () => { const l = objects(); find(l, 'AWSMachineTemplate', 'prod-win').spec.template.spec.uncompressedUserData = false; return { objects: l }; },
  'windows-cluster': () => ({ objects: objects({ linux: null }) }),
  'machine-health-check': () => { const l = objects(); find(l, 'MachineHealthCheck').spec.clusterName = 'other'; return { objects: l }; },
  // The pod rules, one concern each: helm-web.yaml's Windows Deployment with one field changed, or its Job as written.
  'pod-os-validation': () => windowsPod((spec) => { spec.os = { name: 'windows' }; spec.containers[0].securityContext = { privileged: true }; }),
  'pod-os-conflict': () => windowsPod((spec) => { spec.os = { name: 'linux' }; }),
  'pod-os-unselected': () => windowsPod((spec) => { delete spec.nodeSelector; spec.tolerations = [{ operator: 'Exists' }]; }),
  'windows-node-selector': () => ({ objects: yamlFile('fixtures', 'helm-web.yaml') }),
  'windows-toleration': () => ({ objects: yamlFile('fixtures', 'helm-web.yaml'), platform: WindowsPlatform.K0SMOTRON_AWS }),
  'windows-host-network': () => windowsPod((spec) => { spec.hostNetwork = true; }),
  'windows-memory-emptydir': () => ({ objects: yamlFile('fixtures', 'helm-web.yaml') }),
  'windows-host-port': () => windowsPod((spec) => { spec.containers[0].ports[0].hostPort = 8080; }),
  'windows-mount-propagation': () => ({ objects: yamlFile('fixtures', 'helm-web.yaml') }),
  'windows-host-process-user': () => windowsPod((spec) => { spec.hostNetwork = true; spec.securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'ContainerUser' } }; }),
  'windows-run-as-non-root': () => windowsPod((spec) => { spec.containers[0].securityContext = { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerAdministrator' } }; }),
  'service-ports': () => ({ objects: yamlFile('inputs', 'kubectl-scalars.yaml') }),
  'eks-pod-address': () => ({ objects: yamlFile('eks-affinity.yaml'), platform: WindowsPlatform.EKS }),
  'windows-nodes': () => ({ objects: [...yamlFile('inputs', 'windows-no-toleration.yaml'), ...yamlFile('eks-affinity.yaml')], platform: WindowsPlatform.K3S }),
  'workload-selector': () => {
    const l = yamlFile('fixtures', 'helm-web.yaml');
    find(l, 'Deployment').spec.selector.matchLabels = { app: 'api' };
    return { objects: l };
  },
  'workload-counts': () => { const l = yamlFile('fixtures', 'helm-web.yaml'); find(l, 'Deployment').spec.replicas = -1; return { objects: l }; },
  'rollout-strategy': () => { const l = yamlFile('fixtures', 'helm-web.yaml'); find(l, 'Deployment').spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }; return { objects: l }; },
  'cronjob-schedule': () => {
    const l = yamlFile('fixtures', 'helm-web.yaml');
    const job = find(l, 'Job');
    l.push({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly', namespace: job.metadata.namespace }, spec: { schedule: '0 3 * * 7', jobTemplate: { spec: job.spec } } } as K8sObject);
    return { objects: l };
  },
  'job-indexed': () => { const l = yamlFile('fixtures', 'helm-web.yaml'); find(l, 'Job').spec.backoffLimitPerIndex = 2; return { objects: l }; },
  'workload-restart-policy': () => { const l = yamlFile('fixtures', 'helm-web.yaml'); delete find(l, 'Job').spec.template.spec.restartPolicy; return { objects: l }; },
  'object-meta': () => { const l = objects(); find(l, 'MachineHealthCheck').metadata.name = 'Prod_Win'; return { objects: l }; },
  'remote-hosts': () => {
    const l = remoteObjects();
    find(l, 'PooledRemoteMachine').spec.machine.address = '127.0.0.1';
    return { objects: l };
  },
  'eks-hyperv': () => ({
    objects: [{ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'hyperv' }, handler: 'runhcs-wcow-hypervisor' }] as K8sObject[],
    platform: WindowsPlatform.EKS,
  }),
  'load-balancer-targets': () => {
    const l = yamlFile('fixtures', 'helm-web.yaml');
    l.push({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'apps' },
      spec: { selector: { matchLabels: { app: 'api' } }, template: { metadata: { labels: { app: 'api' } }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'api', image: 'nginx:1.27' }] } } },
    } as K8sObject, {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', namespace: 'apps' },
      spec: { type: 'LoadBalancer', selector: { app: 'api' }, ports: [{ port: 80 }] },
    } as K8sObject);
    return { objects: l, platform: WindowsPlatform.EKS };
  },
  'gmsa': () => {
    const l = yamlFile('fixtures', 'helm-web.yaml');
    find(l, 'Deployment').spec.template.spec.securityContext = { windowsOptions: { gmsaCredentialSpecName: 'webapp1' } };
    l.push({ apiVersion: 'windows.k8s.io/v1', kind: 'GMSACredentialSpec', metadata: { name: 'webapp1' }, credspec: {} } as K8sObject);
    return { objects: l };
  },
  'fleet-labels': () => { const l = objects(); find(l, 'Cluster').metadata.labels['windows.cdk-hybrid-windows.io/workers'] = 'false'; return { objects: l }; },
  'autoscaler': () => {
    const l = objects();
    find(l, 'MachineDeployment', 'prod-linux').metadata.annotations = {
      'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '3', 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '1',
    };
    return { objects: l };
  },
  'csi-windows-node': () => {
    const l = yamlFile('fixtures', 'helm-web.yaml');
    find(l, 'Deployment').spec.template.spec.volumes = [{ name: 'share', csi: { driver: 'smb.csi.k8s.io' } }];
    l.push({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'csi-smb-node', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'csi-smb-node' } },
        template: {
          metadata: { labels: { app: 'csi-smb-node' } },
          spec: {
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [{ name: 'smb', image: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3', args: ['--endpoint=unix:///var/lib/kubelet/plugins/smb.csi.k8s.io/csi.sock'] }],
          },
        },
      },
    } as K8sObject);
    return { objects: l };
  },
  'image-lookup': () => {
    const l = objects();
    // A lookup under Canonical's account of aws-us-gov, on a cluster in the aws partition.
    const linux = find(l, 'AWSMachineTemplate', 'prod-linux').spec.template.spec;
    delete linux.ami;
    Object.assign(linux, { imageLookupOrg: '513442679011', imageLookupFormat: 'ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-*-server-*' });
    return { objects: l };
  },
  'windows-hosted-ingress': () => ({
    objects: [
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'h' }, spec: { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'K0smotronControlPlane', name: 'h' } } },
      { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'K0smotronControlPlane', metadata: { name: 'h' }, spec: { ingress: { apiHost: 'api.example.com', konnectivityHost: 'k.example.com' } } },
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'h-win' }, spec: { clusterName: 'h', template: { spec: { clusterName: 'h', bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'K0sWorkerConfigTemplate', name: 'w' } } } } } },
      { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'K0sWorkerConfigTemplate', metadata: { name: 'w' }, spec: { template: { spec: { provisioner: { platform: 'windows', type: 'powershell-xml' } } } } },
    ] as K8sObject[],
  }),
  'schema': () => {
    const l = yamlFile('fixtures', 'helm-web.yaml');
    find(l, 'Deployment').spec.replicass = 2;
    // A custom resource too, which the pinned CRDs check: the core Kubernetes schemas are not shipped yet.
    const md = {
      apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'md' },
      spec: { clusterName: 'c', replicass: 1, selector: { matchLabels: { a: 'b' } }, template: { spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' }, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachineTemplate', name: 't' } } } },
    };
    return { objects: [...l, md] as K8sObject[] };
  },
  'karpenter-windows': () => ({
    objects: [{
      apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'windows' },
      spec: { template: { spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'windows' }, requirements: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] } } },
    }] as K8sObject[],
  }),
};

/**
 * Rules this table does not break yet, each for a stated reason; the test fails when one is
 * covered and still listed, or a new rule is neither covered nor listed.
 */
const NOT_YET_BROKEN: Record<string, string> = {
  'content-named-templates': 'judges only content-named objects of a cdk8s app (ManifestSource.contentNamed), never YAML from elsewhere',
  'hand-off': 'judges the AWS stack\'s infra beside the objects (ManifestSource.infra), never YAML from elsewhere',
  'crd-cel': 'needs the pinned CRDs of ../shared',
  'kubeadm-windows-cluster': 'advice only (kubeadm\'s CoreDNS tolerates the control plane\'s taint): adviseManifests reports it, test/capz/rules.test.ts breaks it',
  'windows-pod-os-name': 'advice, never a violation (adviseManifests reports it)',
  'windows-requests': 'advice, never a violation (adviseManifests reports it)',
  'windows-prefers-linux': 'advice, never a violation (adviseManifests reports it)',
};

/** Fix texts that tell a YAML user nothing, and words of the construct API a YAML user has no use for. */
const GENERIC = /as the message says|change the (pod template|field|props?)\b|^fix it$/i;
const CONSTRUCT_WORDS = /NetworkProvider\.|CalicoMode\.|MachineImage|WorkerPool\b|HybridCluster|\bprops?\b|construct|`infra`|pass `/;

describe('every rule tells YAML users which field to change', () => {
  const all = [...CLUSTER_RULES, ...WORKLOAD_RULES, SCHEMA_RULE, ...EKS_WORKLOAD_RULES].map((r) => r.name);

  test('every rule is broken below, or listed with the reason it is not yet', () => {
    expect([...Object.keys(BROKEN), ...Object.keys(NOT_YET_BROKEN)].sort()).toEqual([...all].sort());
    expect(Object.keys(BROKEN).filter((r) => r in NOT_YET_BROKEN)).toEqual([]);
  });

  test.each(Object.keys(BROKEN))('%s: its YAML-side fix names the field and speaks no construct API', (name) => {
    const { objects: list, platform } = BROKEN[name]();
    const found: ManifestViolation[] = validateManifests(list, { platform }).filter((v) => v.rule === name);
    expect(found.length).toBeGreaterThan(0);
    for (const v of found) {
      const fix = yamlFixOf(v);
      expect(fix).not.toMatch(GENERIC);
      expect(fix).not.toMatch(CONSTRUCT_WORDS);
      // It names a field of the object: the violation's own, or the one to change.
      expect(fix).toMatch(/\b(spec|metadata)(\.[\w.[\]/-]+)?/);
    }
  });
});
