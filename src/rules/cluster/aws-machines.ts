import { amiIdProblem, AvailabilityZone, AwsRegion, keyPairNameProblem } from '../../platform/aws';
import { CAPA_MIN_ROOT_VOLUME_GIB, GP3_MAX_VOLUME_GIB, IMAGE_PUBLISHERS, ImagePublisher, WINDOWS_BASE_AMI_ROOT_GIB } from '../../platform/images';
import { integerProblem } from '../../core/numbers';
import { AWS_INFRASTRUCTURE, K0smotronInfrastructure } from '../../platform/infrastructures';
import { Architecture, InstanceType, windowsInstanceTypeProblem } from '../../platform/instance-type';
import { POOL_LABEL } from '../../platform/labels';
import { LABEL_ZONE } from '../../platform/windows';
import { describe, isCapi, list, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { CAPI, controlPlaneMachineRef, controlPlaneOf, INFRA, Pool, pools } from './pools';

/**
 * The rules over EC2 machines (CAPA): their images and instance types, key pairs, image lookups
 * in the cluster's partition, and the zones pools spread over.
 */

/**
 * A machine template's problems on its infrastructure: on AWS, the AMI or image lookup and the
 * instance type as CAPA passes them to EC2, and, on Linux, the bootstrap path (Windows templates:
 * `windowsMachineProblems`). Other infrastructures' templates say nothing these rules judge.
 */
export function machineProblems(infrastructure: K0smotronInfrastructure | undefined, template: ManifestSource, windows = false): Finding[] {
  if (infrastructure !== AWS_INFRASTRUCTURE) return [];
  const out: Finding[] = [];
  const spec = template.manifest.spec?.template?.spec ?? {};
  const ami = spec.ami?.id;
  if (ami !== undefined) {
    const p = amiIdProblem(ami);
    if (p) out.push(violation(template, p, 'pass an id of the form ami-0123456789abcdef0', 'spec.template.spec.ami.id'));
  } else if (!spec.imageLookupOrg && !spec.imageLookupFormat && !spec.imageLookupBaseOS) {
    out.push(violation(template, 'no AMI and no image lookup', 'pass `ami: MachineImage.id(\'ami-…\')`, or an `infra` that looked one up', 'spec.template.spec.ami', 'set spec.template.spec.ami.id to an AMI id such as ami-0123456789abcdef0, or spec.template.spec.imageLookupOrg and imageLookupFormat'));
  } else if (!windows && spec.cloudInit?.insecureSkipSecretsManager !== true) {
    // CAPA docs/book/src/topics/userdata-privacy.md: without insecureSkipSecretsManager the
    // bootstrap data goes through Secrets Manager and a cloud-init boothook that needs the AWS CLI
    // and a patched cloud-init; an image lookup finds stock images, which never bootstrap.
    out.push(violation(template,
      'cloudInit.insecureSkipSecretsManager is not true, so CAPA hands the bootstrap data over through Secrets Manager, and the machine boots an image lookup: stock images have neither the AWS CLI nor the patched cloud-init CAPA\'s boothook needs',
      'remove the patch, or set bootstrapThroughSecretsManager with `ami: MachineImage.id(...)` of an image built with kubernetes-sigs/image-builder', 'spec.template.spec.cloudInit.insecureSkipSecretsManager',
      'set spec.template.spec.cloudInit.insecureSkipSecretsManager: true, or set spec.template.spec.ami.id to an image built with kubernetes-sigs/image-builder'));
  }
  const type = InstanceType.parse(spec.instanceType, { arch: Architecture.AMD64 });
  if (typeof type === 'string') out.push(violation(template, type, 'use a name such as m7i.large', 'spec.template.spec.instanceType'));
  out.push(...rootVolumeProblems(template, windows ? WINDOWS_BASE_AMI_ROOT_GIB : CAPA_MIN_ROOT_VOLUME_GIB));
  return out;
}

/**
 * The root volume's size, as CAPA and EC2 take it: a whole number of GiB from CAPA's minimum (or,
 * on Windows, the base image's snapshot: RunInstances refuses a smaller volume) to gp3's largest.
 */
function rootVolumeProblems(template: ManifestSource, minimum: number): Finding[] {
  const size = template.manifest.spec?.template?.spec?.rootVolume?.size;
  const p = size === undefined ? undefined : integerProblem(size, minimum, GP3_MAX_VOLUME_GIB);
  return p ? [violation(template, `rootVolume.size ${p}${minimum === WINDOWS_BASE_AMI_ROOT_GIB ? ' GiB, the Windows base image\'s snapshot' : ''}`,
    `give ${minimum} to ${GP3_MAX_VOLUME_GIB} GiB`, 'spec.template.spec.rootVolume.size')] : [];
}

/** The region's name when it is one, else undefined. */
export function validRegion(region: unknown): string | undefined {
  return typeof AwsRegion.parse(region) === 'string' ? undefined : region as string;
}

/**
 * What a Windows machine template needs on its infrastructure: on AWS, plain user data (Windows
 * runs neither CAPA's Secrets Manager boothook nor gzipped user data) and an instance type
 * Windows runs on.
 */
export function windowsMachineProblems(infrastructure: K0smotronInfrastructure | undefined, template: ManifestSource): Finding[] {
  if (infrastructure !== AWS_INFRASTRUCTURE) return [];
  const out: Finding[] = [];
  const machine = template.manifest.spec?.template?.spec ?? {};
  if (machine.cloudInit?.insecureSkipSecretsManager !== true || machine.uncompressedUserData !== true) {
    out.push(violation(template, `${AWS_INFRASTRUCTURE.machineTemplateKind} must keep cloudInit.insecureSkipSecretsManager and uncompressedUserData true: Windows can run neither the Secrets Manager boothook nor gzipped user data`,
      'remove the patch that changes them, or bootstrapThroughSecretsManager (Linux pools only)', machine.cloudInit?.insecureSkipSecretsManager !== true ? 'spec.template.spec.cloudInit.insecureSkipSecretsManager' : 'spec.template.spec.uncompressedUserData',
      'set spec.template.spec.cloudInit.insecureSkipSecretsManager: true and spec.template.spec.uncompressedUserData: true'));
  }
  const type = InstanceType.parse(machine.instanceType, undefined);
  const problem = typeof type === 'string' ? undefined : windowsInstanceTypeProblem(type);
  if (problem) out.push(violation(template, problem.what, problem.fix, 'spec.template.spec.instanceType'));
  return out;
}

/** The AWSCluster of a Cluster on AWS. */
export function awsClusterOf(graph: ManifestGraph, cluster: ManifestSource | undefined): ManifestSource | undefined {
  const ref = cluster?.manifest.spec?.infrastructureRef;
  return cluster && graph.infrastructures.ofCluster(ref?.kind) === AWS_INFRASTRUCTURE ? graph.resolve(cluster, ref) : undefined;
}

/** Every AWSMachineTemplate a cluster's control plane or pools boot from, with its AWSCluster, once each. */
function machineTemplatesOf(graph: ManifestGraph): Array<{ template: ManifestSource; aws: ManifestSource }> {
  const found = new Map<ManifestSource, ManifestSource>();
  for (const cluster of graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI))) {
    const aws = awsClusterOf(graph, cluster);
    const kcp = controlPlaneOf(graph, cluster);
    const ref = controlPlaneMachineRef(kcp)?.ref;
    const cp = kcp && graph.infrastructures.ofTemplate(ref?.kind) === AWS_INFRASTRUCTURE ? graph.resolve(kcp, ref) : undefined;
    if (aws && cp) found.set(cp, aws);
  }
  for (const pool of pools(graph)) {
    const aws = awsClusterOf(graph, pool.cluster);
    if (aws && pool.machine && pool.infrastructure === AWS_INFRASTRUCTURE) found.set(pool.machine, aws);
  }
  return [...found].map(([template, aws]) => ({ template, aws }));
}

/**
 * The EC2 key pair of every machine: CAPA takes the AWSMachine's sshKeyName, else the
 * AWSCluster's, else launches with the key pair named "default"; "" on either means none
 * (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go, createInstance;
 * bastion.go, defaultSSHKeyName). Its webhook accepts "" and printable ASCII names (webhooks/sshkeyname.go).
 */
export const keyPairs = rule<ManifestGraph>({
  name: 'key-pair',
  scope: 'object',
  description: 'Every EC2 machine has a valid key pair name, or an explicit none, never CAPA\'s fallback "default"',
  source: 'cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go (createInstance), bastion.go (defaultSSHKeyName)',
  check: (graph) => {
    const out: Finding[] = [];
    for (const aws of graph.ofKind(AWS_INFRASTRUCTURE.clusterKind).filter((a) => isCapi(a, INFRA))) {
      const name = aws.manifest.spec?.sshKeyName;
      const p = name === undefined || name === '' ? undefined : keyPairNameProblem(name);
      if (p) out.push(violation(aws, p, 'give the name of an EC2 key pair, or "" for none', 'spec.sshKeyName'));
    }
    for (const { template, aws } of machineTemplatesOf(graph)) {
      const own = template.manifest.spec?.template?.spec?.sshKeyName;
      const p = own === undefined || own === '' ? undefined : keyPairNameProblem(own);
      if (p) out.push(violation(template, p, 'give the name of an EC2 key pair, or "" for none', 'spec.template.spec.sshKeyName'));
      if (own === undefined && aws.manifest.spec?.sshKeyName === undefined) {
        out.push(violation(template, `neither it nor ${describe(aws)} sets sshKeyName, so CAPA launches its machines with the key pair named "default", and EC2 refuses the launch in an account without one`,
          'set sshKeyName: "" for no key pair, or name yours (HybridCluster sshKeyName)', 'spec.template.spec.sshKeyName',
          'set spec.template.spec.sshKeyName (or the AWSCluster\'s spec.sshKeyName) to your key pair\'s name, or "" for none'));
      }
    }
    return out;
  },
});

/**
 * Public image lookups in the cluster's partition: CAPA filters on the owner's account id
 * (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/ami.go, DefaultAMILookup), and a
 * publisher's account in one partition owns nothing in another.
 */
export const imageLookups = rule<ManifestGraph>({
  name: 'image-lookup',
  scope: 'object',
  description: 'A public image lookup names the publisher\'s account of the cluster\'s partition',
  source: 'cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/ami.go (DefaultAMILookup)',
  check: (graph) => machineTemplatesOf(graph).flatMap(({ template, aws }) => {
    const owner = template.manifest.spec?.template?.spec?.imageLookupOrg;
    const region = AwsRegion.parse(aws.manifest.spec?.region);
    if (typeof owner !== 'string' || typeof region === 'string') return [];
    for (const publisher of Object.values(IMAGE_PUBLISHERS) as ImagePublisher[]) {
      const owners = publisher.owners as Partial<Record<string, string>>;
      const of = Object.keys(owners).find((partition) => owners[partition] === owner);
      if (of === undefined || of === region.partition) continue;
      const there = owners[region.partition];
      return [violation(template,
        `imageLookupOrg ${owner} is ${publisher.name}' account in the ${of} partition, and the cluster runs in ${region} (${region.partition}), where ${there ? `their account is ${there}` : 'their account is not documented'}: CAPA's lookup finds nothing`,
        there ? `look up under ${there}` : `pass \`ami: MachineImage.id(...)\` of an image in ${region.partition}, or an \`infra\` (the AWS stack reads AMI ids from the region's own SSM parameters)`,
        'spec.template.spec.imageLookupOrg',
        there ? `set spec.template.spec.imageLookupOrg: "${there}"` : `replace spec.template.spec.imageLookupOrg with spec.template.spec.ami.id, an AMI of ${region.partition}`)];
    }
    return [];
  }),
});

/**
 * Where a pool's machines run. CAPA puts a machine in a private subnet of its failure domain,
 * and one without a failure domain in the first private subnet (cluster-api-provider-aws v2.11.1
 * pkg/cloud/services/ec2/instances.go, findSubnet); a failure domain with no private subnet
 * never gets its machine. A pool that spreads over zones (this library's pool label) has one
 * MachineDeployment per zone, each in its own, and its nodes' zone label says which.
 */
export const failureDomains = rule<ManifestGraph>({
  name: 'failure-domain',
  scope: 'object',
  description: 'A pool\'s failure domains are zones with private subnets, agree with its nodes\' zone label, one zone per MachineDeployment',
  source: 'cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go (findSubnet)',
  check: (graph) => {
    const out: Finding[] = [];
    const all = pools(graph);
    for (const pool of all) {
      const fd = pool.md.manifest.spec?.template?.spec?.failureDomain;
      if (fd === undefined) continue;
      const aws = awsClusterOf(graph, pool.cluster);
      const spec = aws?.manifest.spec ?? {};
      const v = (what: string, fix: string) => out.push(violation(pool.md, what, fix, 'spec.template.spec.failureDomain',
        `set spec.template.spec.failureDomain to a zone of a private subnet of ${aws ? describe(aws) : 'the AWSCluster'} (spec.network.subnets)`));
      const zoneIssue = aws ? AvailabilityZone.problem(fd, validRegion(spec.region)) : undefined;
      const privateZones = list(spec.network?.subnets).filter((s) => s?.isPublic !== true).map((s) => s?.availabilityZone);
      if (zoneIssue) {
        v(`failureDomain: ${zoneIssue}`, 'use a zone of the cluster (HybridCluster zones, or the pool\'s zones)');
      } else if (privateZones.length > 0 && privateZones.every((z) => typeof z === 'string') && !privateZones.includes(fd)) {
        v(`failureDomain ${fd} has no private subnet among ${describe(aws!)}'s (${[...new Set(privateZones)].join(', ')}), so CAPA never creates its machines`, 'use a zone of the cluster (HybridCluster zones, or the pool\'s zones)');
      }
      const label = list(pool.config?.manifest.spec?.template?.spec?.args).map((a) => /^--labels=(.*)$/.exec(String(a))?.[1]).find(Boolean)
        ?.split(',').find((pair) => pair.startsWith(`${LABEL_ZONE}=`))?.slice(LABEL_ZONE.length + 1);
      if (label !== undefined && label !== fd) {
        v(`failureDomain ${fd} differs from the zone its nodes register with (${LABEL_ZONE}=${label} in ${describe(pool.config!)}), so pods spread by zone would be placed on a false zone`, 'change the pool\'s zones, not one object');
      }
    }
    // One pool's MachineDeployments: each in a zone of its own, or the pool is not spread at all.
    const byPool = new Map<string, Pool[]>();
    for (const pool of all) {
      const name = pool.md.manifest.spec?.template?.metadata?.labels?.[POOL_LABEL];
      if (pool.cluster && typeof name === 'string') {
        const key = `${pool.cluster.manifest.metadata?.namespace ?? ''}|${pool.cluster.manifest.metadata?.name}|${name}`;
        byPool.set(key, [...(byPool.get(key) ?? []), pool]);
      }
    }
    for (const group of [...byPool.values()].filter((g) => g.length > 1)) {
      const spread = [...new Set(group.map(({ md }) => md.manifest.spec?.template?.spec?.failureDomain).filter((z) => z !== undefined))];
      const seen = new Map<unknown, string>();
      for (const { md } of group) {
        if (spread.length > 0 && md.manifest.spec?.template?.spec?.failureDomain === undefined) {
          out.push(violation(md, `its pool spreads over ${spread.join(', ')}, and it names no failure domain, so CAPA puts its machines in the first private subnet`,
            'change the pool\'s zones, not one MachineDeployment', 'spec.template.spec.failureDomain'));
          continue;
        }
        const fd = md.manifest.spec?.template?.spec?.failureDomain;
        const name = String(md.manifest.metadata?.name);
        const other = seen.get(fd);
        // The same name twice is one object written twice (unique-names), not a second zone.
        if (other !== undefined && other !== name) {
          out.push(violation(md, fd === undefined
            ? `it and ${other}, MachineDeployments of one pool, name no failure domain, so CAPA puts the machines of both in the first private subnet`
            : `it and ${other}, MachineDeployments of one pool, are both in ${fd}, so a zone outage takes more of the pool than its spread says`,
          'change the pool\'s zones, not one MachineDeployment', 'spec.template.spec.failureDomain'));
        }
        seen.set(fd, name);
      }
    }
    return out;
  },
});
