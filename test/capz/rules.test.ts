import { adviseManifests, validateManifests } from '../../src';
import { K8sObject } from '../support/synth';
import { addonSet, capzFlavor, find, WIN } from './flavor';

// Each CAPZ rule: the rendered upstream flavor passes (the valid neighbour), and one broken field
// gives the rule's finding. Upstream behaviour is cited in the rules (src/rules/capz) and facts
// (src/platform/capz.ts).
const findings = (list: K8sObject[], rule: string) => validateManifests(list).filter((v) => v.rule === rule).map((v) => `${v.kind}/${v.name} ${v.field}: ${v.what}`);
const advice = (list: K8sObject[], rule: string) => adviseManifests(list).filter((v) => v.rule === rule).map((v) => `${v.kind}/${v.name} ${v.field}: ${v.what}`);
const broken = (change: (l: K8sObject[]) => void) => { const l = capzFlavor(); change(l); return l; };
const winMachine = (l: K8sObject[]) => find(l, 'AzureMachineTemplate', WIN);
const winConfig = (l: K8sObject[]) => find(l, 'KubeadmConfigTemplate', WIN);

test('the rendered flavor passes every rule, with two pieces of advice: say which kubelet service the image runs, and how the cloud provider is installed', () => {
  expect(validateManifests(capzFlavor())).toEqual([]);
  expect(adviseManifests(capzFlavor()).map((v) => v.rule)).toEqual(['windows-kubelet-service', 'capz-cloud-node-manager']);
  expect(adviseManifests(broken((l) => {
    winMachine(l).metadata.annotations['windows.cdk-hybrid-windows.io/kubelet-service'] = 'nssm';
    find(l, 'Cluster', 'capz-win').metadata.annotations = { 'windows.cdk-hybrid-windows.io/cloud-provider': 'helm-install' };
  }))).toEqual([]);
});

describe('capz-cloud-node-manager', () => {
  // cloud-provider-azure chart 1.36.0 (helm/cloud-provider-azure/templates/cloud-provider-azure.yaml): the
  // cloud-controller-manager runs --controllers=*,-cloud-node, so only the node manager DaemonSets
  // (cloud-node-manager on Linux, cloud-node-manager-windows on Windows) initialize nodes.
  const nodeManager = (name: string, os: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ${name}, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: ${name}}}
  template:
    metadata: {labels: {k8s-app: ${name}}}
    spec:
      nodeSelector: {kubernetes.io/os: ${os}}
      containers: [{name: cloud-node-manager, image: mcr.microsoft.com/oss/v2/kubernetes/azure-cloud-node-manager:v1.34.9}]
`;
  const proxy = (values: string, labels: Record<string, string> = { 'cni-windows': 'calico' }) => ({
    apiVersion: 'addons.cluster.x-k8s.io/v1alpha1', kind: 'HelmChartProxy', metadata: { name: 'cloud-provider-azure-chart', namespace: 'default' },
    spec: { clusterSelector: { matchLabels: labels }, repoURL: 'https://raw.githubusercontent.com/kubernetes-sigs/cloud-provider-azure/master/helm/repo', chartName: 'cloud-provider-azure', valuesTemplate: values },
  }) as K8sObject;
  const CAPZ_VALUES = 'infra:\n  clusterName: {{ .Cluster.metadata.name }}\ncloudControllerManager:\n  clusterCIDR: 192.168.0.0/16\n';

  test('the flavor alone: advice, since nothing shows the chart; CAPZ\'s label, a HelmChartProxy or the annotation show it', () => {
    expect(advice(capzFlavor(), 'capz-cloud-node-manager')).toEqual([expect.stringContaining('Cluster/capz-win metadata.labels: nothing in these objects installs cloud-provider-azure')]);
    expect(advice(broken((l) => { find(l, 'Cluster', 'capz-win').metadata.labels['cloud-provider'] = 'azure'; }), 'capz-cloud-node-manager')).toEqual([]);
    expect(advice([...capzFlavor(), proxy(CAPZ_VALUES)], 'capz-cloud-node-manager')).toEqual([]);
    expect(advice([...capzFlavor(), ...addonSet(nodeManager('cloud-node-manager-windows', 'windows'))], 'capz-cloud-node-manager')).toEqual([]);
    // A proxy that selects another cluster shows nothing for this one.
    expect(advice([...capzFlavor(), proxy(CAPZ_VALUES, { 'cloud-provider': 'azure' })], 'capz-cloud-node-manager')).toHaveLength(1);
    // Windows kubelets without the external cloud provider need no node manager.
    expect(advice(broken((l) => { delete winConfig(l).spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs['cloud-provider']; }), 'capz-cloud-node-manager')).toEqual([]);
  });

  test('a Windows pool whose image runs the kubelet as a native service registers without the cloud taint: refused, unless a kubeadm patch can add it', () => {
    const native = (patches: boolean) => broken((l) => {
      winMachine(l).metadata.annotations['windows.cdk-hybrid-windows.io/kubelet-service'] = 'windows-service';
      if (patches) winConfig(l).spec.template.spec.joinConfiguration.patches = { directory: 'C:/var/lib/kubeadm-patches' };
    });
    expect(findings(native(false), 'capz-cloud-node-manager')).toEqual([expect.stringContaining(`AzureMachineTemplate/${WIN} metadata.annotations.windows.cdk-hybrid-windows.io/kubelet-service: the image runs the kubelet as a native service, whose command line has no --cloud-provider=external`)]);
    expect(findings(native(true), 'capz-cloud-node-manager')).toEqual([]);
    expect(findings(broken((l) => { winMachine(l).metadata.annotations['windows.cdk-hybrid-windows.io/kubelet-service'] = 'nssm'; }), 'capz-cloud-node-manager')).toEqual([]);
  });

  test('a node manager for Linux nodes only, or a chart with the node manager off, is refused', () => {
    expect(findings([...capzFlavor(), ...addonSet(nodeManager('cloud-node-manager', 'linux'))], 'capz-cloud-node-manager'))
      .toEqual([expect.stringContaining('ConfigMap/calico-windows data.addon.yaml (DaemonSet cloud-node-manager: spec.template.spec.nodeSelector): DaemonSet cloud-node-manager in ConfigMap default/calico-windows data.addon.yaml: cloud-provider-azure\'s node manager goes to cluster capz-win for Linux nodes only')]);
    expect(findings([...capzFlavor(), ...addonSet(`${nodeManager('cloud-node-manager', 'linux')}---\n${nodeManager('cloud-node-manager-windows', 'windows')}`)], 'capz-cloud-node-manager')).toEqual([]);
    expect(findings([...capzFlavor(), proxy(`${CAPZ_VALUES}cloudNodeManager:\n  imageTag: v1.34.9\n  enabled: false\n`)], 'capz-cloud-node-manager'))
      .toEqual([expect.stringContaining('HelmChartProxy/cloud-provider-azure-chart spec.valuesTemplate: the cloud-provider-azure chart for cluster capz-win has cloudNodeManager.enabled false')]);
    expect(findings([...capzFlavor(), proxy(`${CAPZ_VALUES}cloudNodeManager:\n  enabled: true\n`)], 'capz-cloud-node-manager')).toEqual([]);
  });
});

describe('capz-os-type', () => {
  test('a Windows bootstrap on a machine template without osType (CAPZ\'s Linux default)', () => {
    expect(findings(broken((l) => { delete winMachine(l).spec.template.spec.osDisk.osType; }), 'capz-os-type'))
      .toEqual([`AzureMachineTemplate/${WIN} spec.template.spec.osDisk.osType: osDisk.osType is absent (CAPZ's default: Linux) while KubeadmConfigTemplate default/${WIN} bootstraps Windows (criSocket npipe:////./pipe/containerd-containerd): CAPZ asks Azure for a Linux VM (a Linux default image, Linux provisioning), and the machine never joins`]);
  });

  test('a Windows image on a Linux machine, a Linux image on a Windows one', () => {
    const md0 = (l: K8sObject[]) => find(l, 'AzureMachineTemplate', 'capz-win-md-0');
    expect(findings(broken((l) => { md0(l).spec.template.spec.image = { computeGallery: { gallery: 'g', name: 'capi-win-2022-containerd', version: '1.34.4' } }; }), 'capz-os-type'))
      .toEqual([expect.stringContaining('AzureMachineTemplate/capz-win-md-0 spec.template.spec.osDisk.osType: osDisk.osType is "Linux" and the image (capi-win-2022-containerd) is a Windows image')]);
    expect(findings(broken((l) => { winMachine(l).spec.template.spec.image = { marketplace: { publisher: 'cncf-upstream', offer: 'capi', sku: 'ubuntu-2404-gen1', version: 'latest' } }; }), 'capz-os-type'))
      .toEqual([expect.stringContaining(`AzureMachineTemplate/${WIN} spec.template.spec.image: osDisk.osType is "Windows" and the image (capi ubuntu-2404-gen1) is a Linux image`)]);
  });

  // Every image-reference form CAPZ v1.26.0 takes (api/v1beta1 types.go Image: id, computeGallery,
  // sharedGallery, marketplace), with the names CAPZ and image-builder publish: azure/defaults.go
  // (capi-win-2022-containerd, capi-ubun2-2404), azure/services/virtualmachineimages/images.go
  // (cncf-upstream capi-windows windows-2019-containerd-gen1, capi ubuntu-2204-gen1),
  // docs/book/src/self-managed/flatcar.md (kinvolk flatcar-container-linux-free).
  const GALLERY_ID = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/galleries/g/images';
  const IMAGES: Record<'windows' | 'linux' | 'unknown', object[]> = {
    windows: [
      { computeGallery: { gallery: 'ClusterAPI-f72ceb4f-5159-4c26-a0fe-2ea738f0d019', name: 'capi-win-2022-containerd', version: '1.34.4' } },
      { marketplace: { publisher: 'cncf-upstream', offer: 'capi-windows', sku: 'windows-2019-containerd-gen1', version: '130.3.20240717' } },
      { marketplace: { publisher: 'MicrosoftWindowsServer', offer: 'WindowsServer', sku: '2022-datacenter-azure-edition', version: 'latest' } },
      { sharedGallery: { subscriptionID: 's', resourceGroup: 'rg', gallery: 'g', name: 'capi-win-2025-containerd', version: '1.0.0' } },
      { id: `${GALLERY_ID}/capi-win-2022-containerd/versions/1.34.4` },
      { id: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/images/win2022-base' },
    ],
    linux: [
      { computeGallery: { gallery: 'ClusterAPI-f72ceb4f-5159-4c26-a0fe-2ea738f0d019', name: 'capi-ubun2-2404', version: '1.34.4' } },
      { marketplace: { publisher: 'cncf-upstream', offer: 'capi', sku: 'ubuntu-2204-gen1', version: '128.12.20240717' } },
      { marketplace: { publisher: 'kinvolk', offer: 'flatcar-container-linux-free', sku: 'stable-gen2', version: 'latest' } },
      { computeGallery: { gallery: 'g', name: 'capi-azurelinux-3', version: '1.0.0' } },
      // A Linux image in a resource group and gallery whose names say Windows: only the image's name counts.
      { id: '/subscriptions/s/resourceGroups/windows-images/providers/Microsoft.Compute/galleries/windows/images/ubuntu-2404/versions/1.0.0' },
    ],
    unknown: [
      { id: '/subscriptions/s/resourceGroups/rg-windows/providers/Microsoft.Compute/images/base-image' },
      { computeGallery: { gallery: 'windows', name: 'darwin-node', version: '1.0.0' } },
      { marketplace: { publisher: 'p', offer: 'twin-offer', sku: 'winter-gen2', version: '1' } },
      { computeGallery: { gallery: 'g', name: 'windows-on-linux-lab', version: '1' } },
    ],
  };
  test.each(Object.entries(IMAGES).flatMap(([os, images]) => images.map((image) => [os, JSON.stringify(image), image] as const)))('a %s image, %s: the osType it needs, and nothing where its names do not tell', (os, _, image) => {
    const onLinux = findings(broken((l) => { find(l, 'AzureMachineTemplate', 'capz-win-md-0').spec.template.spec.image = image; }), 'capz-os-type');
    const onWindows = findings(broken((l) => { winMachine(l).spec.template.spec.image = image; }), 'capz-os-type');
    expect({ onLinux: onLinux.length, onWindows: onWindows.length }).toEqual({ onLinux: os === 'windows' ? 1 : 0, onWindows: os === 'linux' ? 1 : 0 });
  });

  test('the Windows year of an image is read from its names only (calico-windows-2025; the flavor\'s cluster runs Calico)', () => {
    const year = (image: object) => findings(broken((l) => { winMachine(l).spec.template.spec.image = image; }), 'calico-windows-2025').length;
    expect(year({ computeGallery: { gallery: 'g', name: 'capi-win-2025-containerd', version: '1.34.4' } })).toBe(1);
    expect(year({ marketplace: { publisher: 'MicrosoftWindowsServer', offer: 'WindowsServer', sku: '2025-datacenter-azure-edition', version: 'latest' } })).toBe(1);
    // A resource group named after 2025 does not make a 2022 image a 2025 one.
    expect(year({ id: '/subscriptions/s/resourceGroups/rg-2025/providers/Microsoft.Compute/galleries/g/images/capi-win-2022-containerd/versions/1.34.4' })).toBe(0);
  });

  test('CAPZ\'s default Windows image annotations: runtime containerd, windowsServerVersion windows-YYYY', () => {
    expect(findings(broken((l) => { winMachine(l).spec.template.metadata.annotations.runtime = 'dockershim'; }), 'capz-os-type')).toEqual([expect.stringContaining('annotation runtime: "dockershim": CAPZ\'s default Windows image lookup takes only containerd')]);
    expect(findings(broken((l) => { winMachine(l).spec.template.metadata.annotations.windowsServerVersion = 'ltsc2022'; }), 'capz-os-type')).toEqual([expect.stringContaining('annotation windowsServerVersion: "ltsc2022" is not of the form windows-YYYY')]);
    expect(findings(broken((l) => { winMachine(l).spec.template.metadata.annotations.windowsServerVersion = 'windows-2022'; }), 'capz-os-type')).toEqual([]);
  });

  test('a Windows control plane', () => {
    expect(findings(broken((l) => { find(l, 'AzureMachineTemplate', 'capz-win-control-plane').spec.template.spec.osDisk.osType = 'Windows'; }), 'capz-os-type'))
      .toEqual(['AzureMachineTemplate/capz-win-control-plane spec.template.spec.osDisk.osType: osDisk.osType is "Windows" on the control plane\'s machines: kubeadm control planes run on Linux only']);
  });
});

describe('capz-windows-names', () => {
  test('a "." reaches the Windows computer name; a template whose last characters are not random makes every name the same', () => {
    const renamed = broken((l) => {
      find(l, 'MachineDeployment', WIN).metadata.name = 'win.pool';
    });
    expect(findings(renamed, 'capz-windows-names')).toEqual(['MachineDeployment/win.pool metadata.name: the Windows computer name CAPZ derives from this pool\'s machine names (e.g. win.pool-xxxxx-xxxxx → win.pool-xxxxx) holds ".", and a Windows computer name takes only letters, digits and "-", and Azure refuses the VM']);
    const templated = (template: string) => broken((l) => { find(l, 'MachineDeployment', WIN).spec.machineNaming = { template }; });
    expect(findings(templated('{{ .random }}-{{ .machineSet.name }}'), 'capz-windows-names')).toEqual([expect.stringContaining('machine names like xxxxx-capz-win-md-win-xxxxx are longer than 15 characters and do not end in {{ .random }}, so CAPZ shortens every one to xxxxx-cap-xxxxx')]);
    expect(findings(templated('{{ .machineSet.name }}-{{ .random }}'), 'capz-windows-names')).toEqual([]);
    // A short name is the computer name as it is.
    expect(findings(templated('w-{{ .random }}'), 'capz-windows-names')).toEqual([]);
  });
});

test('capz-azure-json: the bootstrap reads the Secret CAPZ writes for its machine template', () => {
  expect(findings(broken((l) => { winConfig(l).spec.template.spec.files[0].contentFrom.secret.name = 'capz-win-md-0-azure-json'; }), 'capz-azure-json'))
    .toEqual([`KubeadmConfigTemplate/${WIN} spec.template.spec.files[0].contentFrom.secret.name: c:/k/azure.json is read from Secret capz-win-md-0-azure-json, but CAPZ writes the cloud provider's config of AzureMachineTemplate default/${WIN}'s machines to ${WIN}-azure-json: the bootstrap waits for a Secret nobody writes`]);
  expect(findings(broken((l) => { find(l, 'KubeadmControlPlane', 'capz-win-control-plane').spec.kubeadmConfigSpec.files[0].contentFrom.secret.name = 'x-azure-json'; }), 'capz-azure-json'))
    .toEqual([expect.stringContaining('KubeadmControlPlane/capz-win-control-plane spec.kubeadmConfigSpec.files[0].contentFrom.secret.name')]);
});

describe('cloudbase-init-fields', () => {
  test('fields cloudbase-init never runs, Ignition, and a .ps1 run as a cmd line', () => {
    expect(findings(broken((l) => {
      const spec = winConfig(l).spec.template.spec;
      spec.mounts = [['LABEL=data', 'D:']];
      spec.bootCommands = ['echo hi'];
      spec.diskSetup = { filesystems: [{ device: 'x', filesystem: 'ntfs', label: 'data' }] };
      spec.format = 'ignition';
      spec.postKubeadmCommands = ['C:/defender-exclude-calico.ps1'];
    }), 'cloudbase-init-fields').map((f) => f.split(':')[0])).toEqual([
      `KubeadmConfigTemplate/${WIN} spec.template.spec.bootCommands`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.diskSetup`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.mounts`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.format`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.postKubeadmCommands[0]`,
    ]);
  });

  test('a Linux pool keeps them', () => {
    expect(findings(broken((l) => { find(l, 'KubeadmConfigTemplate', 'capz-win-md-0').spec.template.spec.mounts = [['LABEL=data', '/data']]; }), 'cloudbase-init-fields')).toEqual([]);
  });
});

test('windows-files: relative paths and characters Windows refuses; advice for a Unix path', () => {
  const withPath = (path: string) => broken((l) => { winConfig(l).spec.template.spec.files[1].path = path; });
  expect(findings(withPath('defender.ps1'), 'windows-files')).toEqual([`KubeadmConfigTemplate/${WIN} spec.template.spec.files[1].path: files[1].path "defender.ps1" is relative: cloudbase-init writes it in its own working directory, where nothing on the machine looks for it`]);
  expect(findings(withPath('c:/k/a:b.ps1'), 'windows-files')).toEqual([expect.stringContaining('holds a character Windows refuses in a path')]);
  expect(findings(withPath('/etc/defender.ps1'), 'windows-files')).toEqual([]);
  expect(advice(withPath('/etc/defender.ps1'), 'windows-files')).toEqual([expect.stringContaining('is a Unix path: cloudbase-init writes it at C:\\etc\\defender.ps1 on the system drive')]);
});

describe('windows-kubelet-service', () => {
  const service = (value: string, change: (l: K8sObject[]) => void = () => undefined) => broken((l) => { winMachine(l).metadata.annotations['windows.cdk-hybrid-windows.io/kubelet-service'] = value; change(l); });

  test('a native kubelet service: every kubelet flag, join taint and nssm command is refused', () => {
    const found = findings(service('windows-service', (l) => { winConfig(l).spec.template.spec.joinConfiguration.nodeRegistration.taints = [{ key: 'os', value: 'windows', effect: 'NoSchedule' }]; }), 'windows-kubelet-service');
    expect(found.map((f) => f.split(':')[0])).toEqual([
      `KubeadmConfigTemplate/${WIN} spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.cloud-provider`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.register-with-taints`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.v`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.windows-priorityclass`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.joinConfiguration.nodeRegistration.taints[0]`,
      `KubeadmConfigTemplate/${WIN} spec.template.spec.postKubeadmCommands[0]`,
    ]);
    expect(found[4]).toContain('taint os=windows:NoSchedule for the kubelet: the image runs it as a native Windows service');
  });

  test('the v1beta2 list form is read the same way', () => {
    const found = findings(service('windows-service', (l) => {
      const config = winConfig(l);
      config.apiVersion = 'bootstrap.cluster.x-k8s.io/v1beta2';
      const registration = config.spec.template.spec.joinConfiguration.nodeRegistration;
      registration.kubeletExtraArgs = Object.entries(registration.kubeletExtraArgs).map(([name, value]) => ({ name, value }));
      config.spec.template.spec.postKubeadmCommands = ['powershell C:/defender-exclude-calico.ps1'];
      delete config.spec.template.spec.preKubeadmCommands;
      const md = find(l, 'MachineDeployment', WIN);
      md.apiVersion = 'cluster.x-k8s.io/v1beta2';
      md.spec.template.spec.bootstrap.configRef = { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: WIN };
    }), 'windows-kubelet-service');
    expect(found.map((f) => f.split(':')[0])).toEqual([0, 1, 2, 3].map((i) => `KubeadmConfigTemplate/${WIN} spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs[${i}]`));
  });

  test('nssm passes; a value that names no service is refused; without one, advice', () => {
    expect(findings(service('nssm'), 'windows-kubelet-service')).toEqual([]);
    expect(findings(service('sc'), 'windows-kubelet-service')).toEqual([`AzureMachineTemplate/${WIN} metadata.annotations.windows.cdk-hybrid-windows.io/kubelet-service: annotation windows.cdk-hybrid-windows.io/kubelet-service: "sc" names no kubelet service`]);
    expect(advice(capzFlavor(), 'windows-kubelet-service')).toEqual([expect.stringContaining('the pool hands the kubelet --cloud-provider, --register-with-taints, --v, --windows-priorityclass through kubeadm, which reach it only if the image runs the kubelet under nssm')]);
  });
});

test('kubeadm-windows-cluster: advice when no Linux pool runs beside the Windows ones', () => {
  expect(advice(capzFlavor(), 'kubeadm-windows-cluster')).toEqual([]);
  expect(advice(broken((l) => { find(l, 'MachineDeployment', 'capz-win-md-0').spec.replicas = 0; }), 'kubeadm-windows-cluster'))
    .toEqual([expect.stringContaining('Cluster/capz-win metadata.name: Windows pools (capz-win-md-win) and no Linux worker: CoreDNS and every Linux add-on run on the control plane')]);
});

describe('calico-windows', () => {
  const installation = (network: string) => `apiVersion: operator.tigera.io/v1
kind: Installation
metadata:
  name: default
spec:
  calicoNetwork:
${network}`;
  // CAPZ v1.26.0 templates/addons/cluster-api-helm/calico.yaml's values, as an Installation.
  const CAPZ = '    bgp: Disabled\n    windowsDataplane: HNS\n    ipPools:\n    - cidr: 192.168.0.0/16\n      encapsulation: VXLAN\n';

  test('the tigera-operator chart beside a set\'s Installation for the same cluster: refused unless the chart writes none', () => {
    // projectcalico/calico charts/tigera-operator values.yaml: installation.enabled true by default.
    const chart = (values: string, labels: Record<string, string> = { 'cni-windows': 'calico' }) => ({
      apiVersion: 'addons.cluster.x-k8s.io/v1alpha1', kind: 'HelmChartProxy', metadata: { name: 'calico', namespace: 'default' },
      spec: { clusterSelector: { matchLabels: labels }, repoURL: 'https://docs.tigera.io/calico/charts', chartName: 'tigera-operator', valuesTemplate: values },
    }) as K8sObject;
    const both = (values: string, labels?: Record<string, string>) => findings([...capzFlavor(), ...addonSet(installation(CAPZ)), chart(values, labels)], 'calico-windows');
    expect(both('installation:\n  cni:\n    type: Calico\n')).toEqual([expect.stringContaining('HelmChartProxy/calico spec.valuesTemplate: the tigera-operator chart writes its own Installation "default" beside Installation default in ConfigMap default/calico-windows')]);
    expect(both('installation:\n  enabled: false\n')).toEqual([]);
    expect(both('installation:\n  cni:\n    type: Calico\n', { other: 'cluster' })).toEqual([]);
    // CAPZ's own: the Installation is the chart's values, and its Windows set carries none.
    expect(findings([...capzFlavor(), chart('installation:\n  calicoNetwork:\n    bgp: Disabled\n')], 'calico-windows')).toEqual([]);
  });

  test('CAPZ\'s Calico values pass; IP-in-IP, BGP on and no Windows dataplane are refused', () => {
    expect(findings([...capzFlavor(), ...addonSet(installation(CAPZ))], 'calico-windows')).toEqual([]);
    const bad = findings([...capzFlavor(), ...addonSet(installation('    bgp: Enabled\n    ipPools:\n    - cidr: 192.168.0.0/16\n      encapsulation: IPIP\n'))], 'calico-windows');
    expect(bad).toEqual([
      expect.stringContaining('ConfigMap/calico-windows data.addon.yaml (Installation default: spec.calicoNetwork.windowsDataplane): Installation default in ConfigMap default/calico-windows data.addon.yaml: calicoNetwork.windowsDataplane is "absent (Disabled)"'),
      expect.stringContaining('(Installation default: spec.calicoNetwork.bgp): Installation default in ConfigMap default/calico-windows data.addon.yaml: calicoNetwork.bgp is Enabled'),
      expect.stringContaining('(Installation default: spec.calicoNetwork.ipPools[0].encapsulation): Installation default in ConfigMap default/calico-windows data.addon.yaml: ipPools[0] (192.168.0.0/16) encapsulation is IPIP'),
    ]);
  });

  test('a cluster without Windows pools is not judged; an IPPool with IP-in-IP is', () => {
    const linuxOnly = capzFlavor().filter((o) => o.metadata.name !== WIN);
    expect(findings([...linuxOnly, ...addonSet(installation('    bgp: Enabled\n'))], 'calico-windows')).toEqual([]);
    const pool = { apiVersion: 'crd.projectcalico.org/v1', kind: 'IPPool', metadata: { name: 'default-ipv4-ippool' }, spec: { cidr: '192.168.0.0/16', ipipMode: 'Always' } };
    expect(findings([...capzFlavor(), pool], 'calico-windows')).toEqual(['IPPool/default-ipv4-ippool spec.ipipMode: IPPool default-ipv4-ippool: ipipMode Always: Calico for Windows has no IP-in-IP']);
  });

  test('advice where BGP or the encapsulation is left to the operator', () => {
    expect(advice([...capzFlavor(), ...addonSet(installation('    windowsDataplane: HNS\n    ipPools:\n    - cidr: 192.168.0.0/16\n'))], 'calico-windows').length).toBe(2);
  });
});

test('calico-windows-2025: refused where the cluster\'s CNI is Calico, advice otherwise', () => {
  const on2025 = (l: K8sObject[]) => { winMachine(l).spec.template.metadata.annotations.windowsServerVersion = 'windows-2025'; };
  expect(findings(broken(on2025), 'calico-windows-2025')).toEqual([expect.stringContaining(`AzureMachineTemplate/${WIN} spec.template.metadata.annotations: the pool runs Windows Server 2025, and its cluster's CNI is Calico, which does not support it (projectcalico/calico#11691`)]);
  const noLabel = broken((l) => { on2025(l); delete find(l, 'Cluster', 'capz-win').metadata.labels['cni-windows']; });
  expect(findings(noLabel, 'calico-windows-2025')).toEqual([]);
  expect(advice(noLabel, 'calico-windows-2025')).toEqual([expect.stringContaining('and Calico, the CNI of CAPZ\'s Windows add-ons, does not support it')]);
  expect(findings(broken((l) => { winMachine(l).spec.template.metadata.annotations.windowsServerVersion = 'windows-2022'; }), 'calico-windows-2025')).toEqual([]);
});

test('windows-kube-proxy: the HostProcess kube-proxy\'s tag is the control plane\'s Kubernetes version', () => {
  const daemonSet = (tag: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-proxy-windows
  namespace: kube-system
spec:
  selector:
    matchLabels: {k8s-app: kube-proxy-windows}
  template:
    metadata:
      labels: {k8s-app: kube-proxy-windows}
    spec:
      nodeSelector: {kubernetes.io/os: windows}
      containers:
      - name: kube-proxy
        image: sigwindowstools/kube-proxy:${tag}
`;
  expect(findings([...capzFlavor(), ...addonSet(daemonSet('v1.34.4-calico-hostprocess'))], 'windows-kube-proxy')).toEqual([]);
  expect(findings([...capzFlavor(), ...addonSet(daemonSet('v1.33.0-calico-hostprocess'))], 'windows-kube-proxy'))
    .toEqual(['ConfigMap/calico-windows data.addon.yaml (DaemonSet kube-proxy-windows: spec.template.spec.containers[0].image): DaemonSet kube-proxy-windows in ConfigMap default/calico-windows data.addon.yaml: image sigwindowstools/kube-proxy:v1.33.0-calico-hostprocess is not the Kubernetes version of cluster capz-win\'s control plane (v1.34.4): kube-proxy on Windows nodes would run another version than kubeadm\'s kube-proxy ConfigMap is written for']);
});

test('unique kubelet flag names: the CRD\'s own list rule (crd-cel) judges the v1beta2 list', () => {
  const l = capzFlavor();
  const config = winConfig(l);
  config.apiVersion = 'bootstrap.cluster.x-k8s.io/v1beta2';
  delete config.spec.template.spec.preKubeadmCommands;
  config.spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs = [{ name: 'v', value: '2' }, { name: 'v', value: '4' }];
  expect(findings(l, 'crd-cel')).toEqual([expect.stringContaining('kubeletExtraArgs name must be unique')]);
});
