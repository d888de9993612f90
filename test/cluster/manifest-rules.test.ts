import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ApiObject, App, Chart, Include, JsonPatch } from 'cdk8s';
import { stringify } from 'yaml';
import {
  CLUSTER_RULES, HybridCluster, HybridValidation, LinuxWorkerPool, Manifest, ManifestViolation, PluginValidationContext, validateManifests,
} from '../../src';
import { MachineImage, WindowsEdition, WindowsPlatform, WindowsVersion } from '../../src';
import { K8sObject, synthObjects } from '../support/synth';
import { FixtureOptions, hybridCluster, LINUX_AMI } from './fixture';

/** The fixture's objects as plain manifests, as written but without the app's validations. */
function objects(options: FixtureOptions = {}): K8sObject[] {
  return hybridCluster(options).app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson());
}

function find(list: K8sObject[], kind: string, prefix: string): K8sObject {
  return list.find((o) => o.kind === kind && o.metadata.name.startsWith(prefix))!;
}

/** Synthesizes and returns the error message, or '' when it passes. */
function synthError(build: () => App): string {
  try {
    synthObjects(build());
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

/** The objects of a valid cluster with a pool's k0s version changed as written (the constructors refuse it as a prop). */
function withPoolVersion(version: string) {
  const list = objects({ windows: null });
  find(list, 'MachineDeployment', 'prod-linux').spec.template.spec.version = version;
  find(list, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec.version = version;
  return list;
}

/** The objects of a valid cluster with its pod or service range changed as written, in CAPI and k0s alike. */
function withRange(what: 'pods' | 'services', cidr: string) {
  const list = objects();
  find(list, 'Cluster', 'prod').spec.clusterNetwork[what].cidrBlocks = [cidr];
  find(list, 'K0sControlPlane', 'prod').spec.k0sConfigSpec.k0s.spec.network[what === 'pods' ? 'podCIDR' : 'serviceCIDR'] = cidr;
  return list;
}

const rules = (vs: ManifestViolation[]) => vs.map((v) => `${v.rule} ${v.kind}/${v.name}: ${v.message}`);

describe('validateManifests over YAML from anywhere', () => {
  test('the valid fixture passes every rule, cluster and workload', () => {
    expect(validateManifests(objects())).toEqual([]);
  });

  test('violations name the object, the rule, the field and the fix', () => {
    const list = objects();
    find(list, 'MachineDeployment', 'prod-linux').spec.replicas = 1.5;
    expect(validateManifests(list)).toEqual([{
      rule: 'machine-deployment', kind: 'MachineDeployment', name: 'prod-linux-a', namespace: undefined, path: undefined,
      field: 'spec.replicas', what: 'replicas 1.5 is not a whole number', fix: 'set `replicas` to a whole number, 0 or more',
      message: 'replicas 1.5 is not a whole number. Fix: set `replicas` to a whole number, 0 or more.',
    }, expect.objectContaining({
      // The CRD's schema (an int32) says so too.
      rule: 'schema', kind: 'MachineDeployment', name: 'prod-linux-a', field: 'spec.replicas', what: 'spec.replicas: 1.5 is a number, where the schema wants an integer',
    })]);
  });

  describe('references are followed as the controllers follow them', () => {
    test('Cluster.controlPlaneRef to a K0sControlPlane that is not there', () => {
      const list = objects();
      find(list, 'Cluster', 'prod').spec.controlPlaneRef.name = 'gone';
      expect(rules(validateManifests(list))).toEqual([
        'cluster-references Cluster/prod: spec.controlPlaneRef names K0sControlPlane "gone", which is not among the objects. Fix: name the K0sControlPlane that is written, or write it.',
      ]);
    });

    test('K0sControlPlane machineTemplate.infrastructureRef with apiGroup (k0smotron reads apiVersion)', () => {
      const list = objects();
      const ref = find(list, 'K0sControlPlane', 'prod').spec.machineTemplate.infrastructureRef;
      ref.apiGroup = 'infrastructure.cluster.x-k8s.io';
      delete ref.apiVersion;
      expect(rules(validateManifests(list)).join('\n')).toContain('control-plane K0sControlPlane/prod: machineTemplate.infrastructureRef has no apiVersion (it has apiGroup "infrastructure.cluster.x-k8s.io", which k0smotron ignores)');
    });

    test('a MachineDeployment whose templates are not there', () => {
      const list = objects().filter((o) => !(o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('prod-linux-')));
      expect(rules(validateManifests(list)).join('\n')).toMatch(/machine-deployment MachineDeployment\/prod-linux-a: bootstrap.configRef names K0sWorkerConfigTemplate "prod-linux-a-[0-9a-f]{8}", which is not among the objects/);
    });

    test('references resolve within the referring object\'s namespace', () => {
      const list = objects();
      find(list, 'AWSCluster', 'prod').metadata.namespace = 'elsewhere';
      expect(rules(validateManifests(list)).join('\n')).toContain('spec.infrastructureRef names AWSCluster "prod", which is not among the objects');
    });

    test('a MachineDeployment selector that no longer matches its template labels', () => {
      const list = objects();
      find(list, 'MachineDeployment', 'prod-linux-a').spec.selector.matchLabels['node.cluster.x-k8s.io/pool'] = 'other';
      const found = rules(validateManifests(list)).join('\n');
      expect(found).toContain('machine-deployment MachineDeployment/prod-linux-a: spec.selector');
      // The MachineHealthCheck selects by the template labels, which still match.
      expect(found).not.toContain('machine-health-check');
    });

    test('a MachineHealthCheck that selects no pool', () => {
      const list = objects();
      find(list, 'MachineHealthCheck', 'prod-win').spec.selector.matchLabels['node.cluster.x-k8s.io/pool'] = 'windows';
      expect(rules(validateManifests(list))).toEqual([
        'machine-health-check MachineHealthCheck/prod-win: spec.selector {"matchLabels":{"cluster.x-k8s.io/cluster-name":"prod","node.cluster.x-k8s.io/pool":"windows"}} matches the machines of no MachineDeployment and not the control plane of cluster prod, so it never remediates anything. Fix: select the labels of the pool\'s machine template, or cluster.x-k8s.io/control-plane: "true" (or an Exists expression on it) for the control plane.',
      ]);
    });

    test('a MachineDeployment of a cluster that is not there', () => {
      const list = objects();
      find(list, 'Cluster', 'prod').metadata.name = 'renamed';
      const found = rules(validateManifests(list)).join('\n');
      expect(found).toContain('machine-deployment MachineDeployment/prod-linux-a: spec.clusterName "prod" names no Cluster among the objects');
      expect(found).toContain('machine-health-check MachineHealthCheck/prod-win: spec.clusterName "prod" names no Cluster');
    });
  });

  describe('versions', () => {
    // CAPI v1.14 core/reconcilers/machineset/machineset_preflight.go, kubernetesVersionPreflightCheck.
    test('a pool newer than its control plane is held by the MachineSet preflight check', () => {
      const list = withPoolVersion('v1.35.0+k0s.0');
      expect(rules(validateManifests(list)).join('\n')).toContain('version-skew MachineDeployment/prod-linux-a: pool k0s v1.35.0+k0s.0 is newer than the control plane\'s v1.34.10+k0s.0');
    });
    test('more than 3 minors older is held; 3 is fine', () => {
      expect(rules(validateManifests(withPoolVersion('v1.30.9+k0s.0'))).join('\n'))
        .toContain('pool k0s v1.30.9+k0s.0 is more than 3 minors older than the control plane\'s v1.34.10+k0s.0');
      expect(validateManifests(withPoolVersion('v1.31.0+k0s.0'))).toEqual([]);
    });
    test('a patched control-plane version is judged against the pools', () => {
      expect(synthError(() => {
        const f = hybridCluster();
        ApiObject.of(f.cluster.controlPlane).addJsonPatch(JsonPatch.replace('/spec/version', 'v1.33.0+k0s.0'));
        return f.app;
      })).toMatch(/\[mgmt\/prod\/linux\] MachineDeployment prod-linux-a: pool k0s v1\.34\.10\+k0s\.0 is newer than the control plane's v1\.33\.0\+k0s\.0.*Fix: upgrade the control plane/);
    });
    test('a K0sWorkerConfigTemplate version that differs from its machines', () => {
      const list = objects();
      find(list, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec.version = 'v1.33.0+k0s.0';
      expect(rules(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'machine-deployment') })).join('\n'))
        .toMatch(/the machines are version v1\.34\.10\+k0s\.0 but K0sWorkerConfigTemplate prod-linux-a-[0-9a-f]{8} installs k0s v1\.33\.0\+k0s\.0/);
    });
    test.each(['v1.034.2+k0s.0', 'v1.34.10+k0s.01', 'latest'])('k0s version %s on the control plane', (version) => {
      const list = objects();
      find(list, 'K0sControlPlane', 'prod').spec.version = version;
      expect(rules(validateManifests(list)).join('\n')).toContain(`control-plane K0sControlPlane/prod: k0s version "${version}" is not of the form vX.Y.Z+k0s.N`);
    });
  });

  describe('machines and names as written', () => {
    test('an AMI id and an instance type that EC2 would refuse', () => {
      const list = objects();
      const spec = find(list, 'AWSMachineTemplate', 'prod-linux-').spec.template.spec;
      spec.ami.id = 'ami-linux';
      spec.instanceType = 'T3.LARGE';
      expect(rules(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'machine-deployment') })).map((m) => m.replace(/-[0-9a-f]{8}:/, '-…:'))).toEqual([
        'machine-deployment AWSMachineTemplate/prod-linux-…: AMI "ami-linux" is not an AMI id (ami- and 8 or 17 lower-case hex digits). Fix: pass an id of the form ami-0123456789abcdef0.',
        'machine-deployment AWSMachineTemplate/prod-linux-…: instance type "T3.LARGE" is not an EC2 instance type name (lower-case family, ".", size: e.g. m7i.large). Fix: use a name such as m7i.large.',
      ]);
    });
    test('an image lookup instead of an AMI id is accepted', () => {
      const list = objects();
      const spec = find(list, 'AWSMachineTemplate', 'prod-linux-').spec.template.spec;
      delete spec.ami;
      spec.imageLookupOrg = '099720109477';
      expect(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'machine-deployment') })).toEqual([]);
    });
    // Its characters are the API server's (a DNS-1123 subdomain for a custom resource, object-meta);
    // CAPI's webhook adds only the label value's 63 characters, which a dotted name meets.
    test('a MachineDeployment name that is no DNS subdomain is object-meta\'s; a dotted one passes every rule', () => {
      const named = (name: string) => {
        const list = objects();
        const md = find(list, 'MachineDeployment', 'prod-linux');
        md.metadata.name = name;
        return rules(validateManifests(list)).filter((r) => r.includes(`MachineDeployment/${name}`));
      };
      expect(named('Prod_Linux')).toEqual([
        'object-meta MachineDeployment/Prod_Linux: MachineDeployment name "Prod_Linux" must be lower-case letters, digits, "-" and ".", starting and ending with a letter or digit (a DNS-1123 subdomain). Fix: change metadata.name to what the API server takes (it would refuse the object at kubectl apply).',
      ]);
      expect(named('prod.linux')).toEqual([]);
    });
    test('a MachineDeployment name of 63 characters passes and one of 64 is reported (CAPI\'s webhook: a label value)', () => {
      const named = (length: number) => {
        const list = objects();
        const md = find(list, 'MachineDeployment', 'prod-linux');
        md.metadata.name = 'm'.repeat(length);
        return rules(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'machine-deployment') }));
      };
      expect(named(63)).toEqual([]);
      expect(named(64)).toEqual([`machine-deployment MachineDeployment/${'m'.repeat(64)}: MachineDeployment name "${'m'.repeat(64)}" is 64 characters long; the limit is 63 (a label value). Fix: shorten it to at most 63 characters.`]);
    });
    test('an AWSCluster without a region', () => {
      const list = objects();
      delete find(list, 'AWSCluster', 'prod').spec.region;
      expect(rules(validateManifests(list))).toEqual(['aws-cluster AWSCluster/prod: no AWS region. Fix: pass `region`, or an `infra` from the AWS stack.']);
    });
  });

  test('a Windows worker config that counts on downloadURL or preInstalledK0s, which k0smotron\'s Windows bootstrap ignores', () => {
    // k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go: getWindowsCommands
    // downloads https://get.k0sproject.io/<version>/k0s-<version>-amd64.exe; only getLinuxCommands reads them.
    const list = objects();
    const windows = find(list, 'K0sWorkerConfigTemplate', 'prod-win-').spec.template.spec;
    windows.downloadURL = 'https://mirror.example.com/k0s.exe';
    windows.preInstalledK0s = true;
    Object.assign(find(list, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec, { downloadURL: 'https://mirror.example.com/k0s', preInstalledK0s: true });
    expect(rules(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'windows-pool') })).map((m) => m.replace(/-[0-9a-f]{8}:/, '-…:'))).toEqual([
      'windows-pool K0sWorkerConfigTemplate/prod-win-a-…: downloadURL and preInstalledK0s on a Windows worker config: k0smotron\'s Windows bootstrap ignores them and downloads k0s.exe from get.k0sproject.io. '
        + 'Fix: remove them, and let the Windows machines reach get.k0sproject.io (through the NAT gateways or a proxy).',
    ]);
  });

  describe('networks', () => {
    test('a pod range on CAPA\'s default VPC 10.0.0.0/16 when CAPA makes the VPC', () => {
      const list = withRange('pods', '10.0.0.0/16');
      expect(rules(validateManifests(list)).join('\n')).toContain('pod CIDR 10.0.0.0/16 overlaps the VPC 10.0.0.0/16 (CAPA\'s default VPC)');
    });
    test('a VPC of your own with a known CIDR is judged by that CIDR', () => {
      const list = withRange('pods', '10.0.0.0/16');
      find(list, 'AWSCluster', 'prod').spec.network.vpc = { cidrBlock: '172.31.0.0/16' };
      expect(validateManifests(list)).toEqual([]);
    });
    test.each([['10.0.0.0/11', 'is larger than /12'], ['10.128.0.0/29', 'has 8 addresses']])('service range %s', (serviceCidr, why) => {
      expect(rules(validateManifests(withRange('services', serviceCidr))).join('\n')).toContain(`service CIDR ${serviceCidr} ${why}`);
    });
    test('/12 and /28 service ranges are accepted', () => {
      expect(validateManifests(objects({ cluster: { network: { serviceCidr: '10.128.0.0/12' } } }))).toEqual([]);
      expect(validateManifests(objects({ cluster: { network: { serviceCidr: '10.128.0.0/28' } } }))).toEqual([]);
    });
    test('k0s and CAPI disagreeing on the pod range', () => {
      const list = objects();
      find(list, 'K0sControlPlane', 'prod').spec.k0sConfigSpec.k0s.spec.network.podCIDR = '172.16.0.0/16';
      expect(rules(validateManifests(list))).toEqual([
        'cluster-network K0sControlPlane/prod: k0s pod CIDR 172.16.0.0/16 differs from the Cluster\'s 192.168.0.0/16. Fix: set the same range in both (change the network prop, not one object).',
      ]);
    });
    test('subnets in zones of another region', () => {
      const list = objects();
      find(list, 'AWSCluster', 'prod').spec.network.subnets = [{ id: 'subnet-a', availabilityZone: 'eu-north-1a' }, { id: 'subnet-b', availabilityZone: 'eu-west-1b' }];
      expect(rules(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'aws-cluster') }))).toEqual([
        'aws-cluster AWSCluster/prod: network.subnets[1]: availability zone "eu-west-1b" is in eu-west-1, not in eu-north-1. Fix: use a zone of the cluster\'s region, e.g. eu-north-1a.',
      ]);
    });
    test('an AWSCluster region that is an availability zone', () => {
      const list = objects();
      find(list, 'AWSCluster', 'prod').spec.region = 'eu-north-1a';
      expect(rules(validateManifests(list))).toEqual([
        'aws-cluster AWSCluster/prod: region "eu-north-1a" is an availability zone of eu-north-1, not a region. Fix: use a region name such as eu-north-1.',
      ]);
    });
  });

  describe('node labels, as the kubelet takes them (--node-labels)', () => {
    test.each([
      ['node-role.kubernetes.io/worker=', 'the kubelet refuses such --node-labels'],
      ['kubernetes.io/os=linux', 'is set by the kubelet from the node itself'],
      ['team=a b', 'has a value that is not alphanumeric'],
    ])('%s in the K0sWorkerConfigTemplate args', (label, why) => {
      const list = objects();
      find(list, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec.args = [`--labels=node.cluster.x-k8s.io/pool=linux,${label}`];
      expect(rules(validateManifests(list, { rules: CLUSTER_RULES.filter((r) => r.name === 'machine-deployment') })).join('\n')).toContain(why);
    });
  });

  describe('names that collide are written twice', () => {
    test('two pools with one name', () => {
      expect(synthError(() => {
        const f = hybridCluster();
        new LinuxWorkerPool(f.cluster, 'linux2', { name: 'linux', instanceType: 't3.large', ami: LINUX_AMI });
        return f.app;
      })).toMatch(/\[mgmt\/prod\/linux2\] MachineDeployment prod-linux-a: MachineDeployment prod-linux-a is written 2 times \(mgmt\/prod\/linux\/MachineDeployment-a, mgmt\/prod\/linux2\/MachineDeployment-a\)/);
    });

    test('two clusters of one name in one namespace, across charts of one App', () => {
      const message = synthError(() => {
        const f = hybridCluster({ windows: null });
        new HybridCluster(new Chart(f.app, 'other'), 'prod', { region: 'eu-north-1', zones: ['eu-north-1a'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large', ami: LINUX_AMI } });
        return f.app;
      });
      expect(message).toContain('[other/prod] Cluster prod: Cluster prod is written 2 times (mgmt/prod/Cluster, other/prod/Cluster)');
      // In different namespaces they are two clusters.
      expect(synthError(() => {
        const f = hybridCluster({ windows: null });
        new HybridCluster(new Chart(f.app, 'other', { namespace: 'team-b' }), 'prod', { region: 'eu-north-1', zones: ['eu-north-1a'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large', ami: LINUX_AMI } });
        return f.app;
      })).toBe('');
    });

    test('names that collide after joining: cluster a + pool b-linux and cluster a-b + pool linux', () => {
      const message = synthError(() => {
        const app = new App();
        const chart = new Chart(app, 'mgmt');
        const props = { region: 'eu-north-1', zones: ['eu-north-1a'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large', ami: LINUX_AMI } };
        new LinuxWorkerPool(new HybridCluster(chart, 'a', props), 'pool', { name: 'b-linux', instanceType: 't3.large', ami: LINUX_AMI });
        new LinuxWorkerPool(new HybridCluster(chart, 'a-b', props), 'pool', { name: 'linux', instanceType: 't3.large', ami: LINUX_AMI });
        return app;
      });
      expect(message).toContain('[mgmt/a-b/pool] MachineDeployment a-b-linux-a: MachineDeployment a-b-linux-a is written 2 times');
    });
  });

  test('each synth judges the app as it is then, clusters added since included', () => {
    const app = new App();
    const early = new Chart(app, 'early');
    const props = { region: 'eu-north-1', zones: ['eu-north-1a'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large', ami: LINUX_AMI } };
    const cluster = new HybridCluster(new Chart(app, 'mgmt'), 'prod', props);
    const pool = new LinuxWorkerPool(cluster, 'linux', { instanceType: 't3.large', ami: LINUX_AMI });
    expect(synthError(() => app)).toBe('');
    ApiObject.of(pool.machineDeployments[0]).addJsonPatch(JsonPatch.replace('/spec/replicas', -3));
    expect(synthError(() => app)).toContain('[mgmt/prod/linux] MachineDeployment prod-linux-a: replicas -3 is below 0');
    // A cluster that now comes first in the tree, colliding with the existing one, with a problem of its own.
    const added = new HybridCluster(early, 'prod', props);
    ApiObject.of(added.awsCluster).addJsonPatch(JsonPatch.replace('/spec/region', 'Stockholm'));
    const message = synthError(() => app);
    expect(message).toContain('[early/prod] AWSCluster prod: region "Stockholm" is not an AWS region name');
    expect(message).toContain('[mgmt/prod/linux] MachineDeployment prod-linux-a: replicas -3 is below 0');
    expect(message).toContain('[mgmt/prod] Cluster prod: Cluster prod is written 2 times (early/prod/Cluster, mgmt/prod/Cluster)');
  });

  describe('bootstrap data, remediation and ports as written (a patch cannot undo the props checks)', () => {
    const only = (name: string) => ({ rules: CLUSTER_RULES.filter((r) => r.name === name) });
    test('the Secrets Manager hand-off switched on by a patch, on an image lookup', () => {
      const message = synthError(() => {
        const f = hybridCluster({ linux: { ami: MachineImage.ubuntu2404() } });
        ApiObject.of(f.linux!.machineTemplate).addJsonPatch(JsonPatch.remove('/spec/template/spec/cloudInit'));
        return f.app;
      });
      expect(message).toMatch(/\[mgmt\/prod\/linux\] AWSMachineTemplate prod-linux-[0-9a-f]{8}: cloudInit\.insecureSkipSecretsManager is not true, so CAPA hands the bootstrap data over through Secrets Manager, and the machine boots an image lookup/);
    });
    test('on the control plane\'s template too; a pinned AMI may take the hand-off; Windows templates have their own rule', () => {
      const list = objects({ cluster: { controlPlane: { instanceType: 't3.large', ami: MachineImage.ubuntu2404() } } });
      delete find(list, 'AWSMachineTemplate', 'prod-cp-').spec.template.spec.cloudInit;
      expect(rules(validateManifests(list, only('control-plane'))).join('\n')).toContain('cloudInit.insecureSkipSecretsManager is not true');

      const pinned = objects();
      delete find(pinned, 'AWSMachineTemplate', 'prod-linux-').spec.template.spec.cloudInit;
      expect(validateManifests(pinned, only('machine-deployment'))).toEqual([]);

      const windows = objects({ windows: { ami: MachineImage.windowsServer(WindowsVersion.SERVER_2022, WindowsEdition.CORE) } });
      delete find(windows, 'AWSMachineTemplate', 'prod-win-').spec.template.spec.cloudInit;
      const found = rules(validateManifests(windows));
      expect(found.filter((m) => m.includes('AWSMachineTemplate/prod-win-'))).toEqual([expect.stringContaining('windows-pool AWSMachineTemplate/prod-win-')]);
    });
    // cluster-api v1.14 core/reconcilers/machinehealthcheck/machinehealthcheck_controller.go, getMaxUnhealthy.
    test.each([
      ['40%', 'is 0 (CAPI rounds percentages down)'],
      [0, 'is 0 (CAPI rounds percentages down)'],
      ['1', 'is neither a number nor a whole percentage'],
      ['50%', undefined],
      [1, undefined],
    ])('remediation limit %j over the pool\'s 2 machines', (limit, problem) => {
      const list = objects();
      find(list, 'MachineHealthCheck', 'prod-linux').spec.remediation.triggerIf.unhealthyLessThanOrEqualTo = limit;
      const found = rules(validateManifests(list, only('machine-health-check')));
      if (problem === undefined) expect(found).toEqual([]);
      else {
        expect(found).toHaveLength(1);
        expect(found[0]).toContain(`machine-health-check MachineHealthCheck/prod-linux: remediation.triggerIf.unhealthyLessThanOrEqualTo ${JSON.stringify(limit)} `);
        expect(found[0]).toContain(problem);
      }
    });
    test('a percentage is judged against the final replicas, and unhealthyInRange takes precedence', () => {
      const list = objects();
      const mhc = find(list, 'MachineHealthCheck', 'prod-linux');
      mhc.spec.remediation.triggerIf.unhealthyLessThanOrEqualTo = '40%';
      find(list, 'MachineDeployment', 'prod-linux').spec.replicas = 3;
      expect(rules(validateManifests(list, only('machine-health-check')))).toEqual([]);
      find(list, 'MachineDeployment', 'prod-linux').spec.replicas = 2;
      mhc.spec.remediation.triggerIf.unhealthyInRange = '[1-2]';
      expect(rules(validateManifests(list, only('machine-health-check')))).toEqual([]);
    });
    test('a node-condition timeout under a minute', () => {
      const list = objects();
      find(list, 'MachineHealthCheck', 'prod-win').spec.checks.unhealthyNodeConditions[1].timeoutSeconds = 30;
      expect(rules(validateManifests(list, only('machine-health-check')))).toEqual([
        'machine-health-check MachineHealthCheck/prod-win: checks.unhealthyNodeConditions[1] (Ready=Unknown) replaces a machine after 30 seconds, so a node that blips NotReady (a kubelet restart) is replaced. Fix: give at least 60 seconds (the pool\'s nodeReadyTimeout); Windows nodes need about 15 minutes.',
      ]);
    });
    test('node ingress ports EC2 would refuse', () => {
      const list = objects({ cluster: { nodeAgentPorts: [9182] } });
      const [rule] = find(list, 'AWSCluster', 'prod').spec.network.additionalNodeIngressRules;
      expect(validateManifests(list, only('aws-cluster'))).toEqual([]);
      rule.fromPort = 70000;
      rule.toPort = 70000;
      expect(rules(validateManifests(list, only('aws-cluster')))).toEqual([expect.stringContaining('network.additionalNodeIngressRules rule "node agent 9182 from cluster machines": fromPort 70000 is above 65535')]);
      rule.fromPort = 9200;
      rule.toPort = 9182;
      expect(rules(validateManifests(list, only('aws-cluster')))).toEqual([expect.stringContaining('ports 9200-9182 are reversed')]);
    });
    test('a node ingress rule of port 0 alone admits nothing; a range from 0 is a range', () => {
      const list = objects({ cluster: { nodeAgentPorts: [9182] } });
      const [rule] = find(list, 'AWSCluster', 'prod').spec.network.additionalNodeIngressRules;
      rule.fromPort = 0;
      rule.toPort = 0;
      expect(validateManifests(list, only('aws-cluster')).map((v) => [v.field, v.message])).toEqual([['spec.network.additionalNodeIngressRules[0].fromPort',
        'network.additionalNodeIngressRules rule "node agent 9182 from cluster machines": port 0 alone admits nothing, as no process can listen on port 0. Fix: give the port the agent listens on, from 1 to 65535.']]);
      rule.toPort = 65535;
      expect(validateManifests(list, only('aws-cluster'))).toEqual([]);
      // Protocol "-1" (all traffic) writes 0 for its ports, as EC2 ignores them.
      Object.assign(rule, { protocol: '-1', fromPort: 0, toPort: 0 });
      expect(validateManifests(list, only('aws-cluster'))).toEqual([]);
    });
  });

  describe('templates are named after their final content', () => {
    test('a patched AWSMachineTemplate keeps its old name and is reported', () => {
      expect(synthError(() => {
        const f = hybridCluster();
        ApiObject.of(f.linux!.machineTemplate).addJsonPatch(JsonPatch.replace('/spec/template/spec/rootVolume/size', 80));
        return f.app;
      })).toMatch(/\[mgmt\/prod\/linux\] AWSMachineTemplate prod-linux-[0-9a-f]{8}: the template was changed after it was named \(its content now hashes to [0-9a-f]{8}\)/);
    });
    test('a patched K0sWorkerConfigTemplate too', () => {
      expect(synthError(() => {
        const f = hybridCluster();
        ApiObject.of(f.linux!.workerConfigTemplates[0]).addJsonPatch(JsonPatch.add('/spec/template/spec/args/-', '--debug'));
        return f.app;
      })).toMatch(/\[mgmt\/prod\/linux\] K0sWorkerConfigTemplate prod-linux-a-[0-9a-f]{8}: the template was changed after it was named/);
    });
    test('YAML from elsewhere is not judged by its names', () => {
      const list = objects();
      for (const o of list.filter((x) => x.kind === 'AWSMachineTemplate')) o.spec.template.spec.rootVolume.size = 90;
      expect(validateManifests(list)).toEqual([]);
    });
  });

  describe('objects outside any cluster are judged too', () => {
    test('a hand-written MachineDeployment in another chart, reported with its construct path', () => {
      const message = synthError(() => {
        const f = hybridCluster();
        new ApiObject(new Chart(f.app, 'extra'), 'md', {
          apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'stray' },
          spec: { clusterName: 'prod', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { clusterName: 'prod', version: 'v1.36.0+k0s.0' } } },
        });
        return f.app;
      });
      expect(message).toContain('[mgmt/prod] extra/md (MachineDeployment stray): pool k0s v1.36.0+k0s.0 is newer than the control plane\'s v1.34.10+k0s.0');
    });
  });

  test('an Included manifest, reported with its construct path', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'include-')), 'mhc.yaml');
    writeFileSync(file, stringify({
      apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineHealthCheck', metadata: { name: 'extra-mhc' },
      spec: { clusterName: 'prod', selector: { matchLabels: { pool: 'none' } } },
    }));
    const message = synthError(() => {
      const f = hybridCluster();
      new Include(f.chart, 'extra', { url: file });
      return f.app;
    });
    expect(message).toContain('[mgmt/prod] mgmt/extra/extra-mhc-machinehealthcheck (MachineHealthCheck extra-mhc): spec.selector {"matchLabels":{"pool":"none"}} matches the machines of no MachineDeployment and not the control plane of cluster prod');
  });

  describe('the workload rules run on YAML from elsewhere', () => {
    test('a privileged Windows Deployment without the toleration', () => {
      const deployment: Manifest = {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'iis' },
        spec: { template: { spec: {
          os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' },
          containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', securityContext: { privileged: false } }],
        } } },
      };
      const found = rules(validateManifests([deployment], { platform: WindowsPlatform.K0SMOTRON_AWS }));
      expect(found.join('\n')).toContain('pod-os-validation Deployment/iis: spec.template.spec.containers[0].securityContext.privileged: ');
      expect(found.join('\n')).toContain('spec.template.spec.tolerations: must tolerate the Windows node taint os=windows:NoSchedule');
      // Without a platform no taint is known (AKS taints nothing, GKE with its own key): no toleration is required.
      expect(rules(validateManifests([deployment])).join('\n')).not.toContain('tolerations');
    });
  });
});

describe('HybridValidation, the cdk8s validation plugin (cdk8s.yaml `validations:`)', () => {
  function context(manifests: Manifest[]) {
    const violations: Array<{ ruleName: string; fix: string; recommendation: string; violatingResources: unknown[] }> = [];
    let status: string | undefined;
    const ctx: PluginValidationContext = {
      manifests: ['dist/mgmt.k8s.yaml'],
      parseManifest: () => manifests,
      report: { addViolation: (v) => violations.push(v), submit: (s) => { status = s; } },
    };
    return { ctx, violations, status: () => status };
  }

  test('passes valid manifests', async () => {
    const c = context(objects());
    await new HybridValidation().validate(c.ctx);
    expect(c.status()).toBe('success');
    expect(c.violations).toEqual([]);
  });

  test('reports each violation with its rule, fix, resource and field, and fails', async () => {
    const list = objects();
    find(list, 'MachineDeployment', 'prod-win').spec.replicas = -2;
    const c = context(list);
    await new HybridValidation({ ruleSets: ['cluster'] }).validate(c.ctx);
    expect(c.status()).toBe('failure');
    expect(c.violations).toEqual([{
      ruleName: 'machine-deployment',
      recommendation: 'MachineDeployment prod-win-a: replicas -2 is below 0.',
      fix: 'set `replicas` to a whole number, 0 or more.',
      violatingResources: [{ resourceName: 'prod-win-a', locations: ['spec.replicas'], manifestPath: 'dist/mgmt.k8s.yaml' }],
    }]);
  });

  test('its platform decides the Windows taint pods must tolerate; windowsTaint overrides it', async () => {
    const deployment: Manifest = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'iis' },
      spec: { template: { spec: { os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' }, containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }] } } },
    };
    const run = async (props: ConstructorParameters<typeof HybridValidation>[0]) => {
      const c = context([deployment]);
      await new HybridValidation(props).validate(c.ctx);
      return c.violations.map((v) => v.recommendation);
    };
    expect((await run({})).filter((r) => r.includes('tolerat'))).toEqual([]);
    expect((await run({ platform: 'aks' })).filter((r) => r.includes('tolerat'))).toEqual(['Deployment iis: spec.template.spec.tolerations: must tolerate the Windows node taint os=windows:NoSchedule, or the pod stays Pending.']);
    expect((await run({ platform: 'gke' })).filter((r) => r.includes('tolerat'))).toEqual(['Deployment iis: spec.template.spec.tolerations: must tolerate the Windows node taint node.kubernetes.io/os=windows:NoSchedule, or the pod stays Pending.']);
    expect((await run({ platform: 'gke', windowsTaint: 'none' })).filter((r) => r.includes('tolerat'))).toEqual([]);
    await expect(run({ platform: 'openshift' })).rejects.toThrow(`HybridValidation platform openshift: the platforms are ${Object.values(WindowsPlatform).join(', ')}`);
    await expect(run({ windowsTaint: 'windows' })).rejects.toThrow(/windowsTaint windows: write key=value:Effect/);
  });

  test('runs under cdk8s-cli\'s own ValidationContext, which adds the construct path', async () => {
    // cdk8s-cli does not export its plugin module; load the file the CLI itself loads.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ValidationContext } = require(resolve(__dirname, '../../node_modules/cdk8s-cli/lib/plugins/validation.js'));
    const list = objects();
    find(list, 'AWSCluster', 'prod').spec.region = 'Stockholm';
    const file = join(mkdtempSync(join(tmpdir(), 'plugin-')), 'mgmt.k8s.yaml');
    writeFileSync(file, list.map((o) => stringify(o)).join('---\n'));
    const ctx = new ValidationContext([file], 'cdk-hybrid-windows', '0.1.0', { prod: { path: 'mgmt/prod/AWSCluster' } }, false);
    await new HybridValidation().validate(ctx);
    expect(ctx.report.success).toBe(false);
    const [violation] = ctx.report.toJson().violations;
    expect(violation).toMatchObject({ ruleName: 'aws-cluster', recommendation: 'AWSCluster prod: region "Stockholm" is not an AWS region name like eu-north-1.' });
    expect(violation.violatingConstructs[0]).toMatchObject({ constructPath: 'mgmt/prod/AWSCluster', locations: ['spec.region'], manifestPath: file });
  });
});
