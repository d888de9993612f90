import { readFileSync } from 'node:fs';
import { amiIdProblem, AvailabilityZone, AwsRegion, KeyPairType, keyPairNameProblem } from '../platform/aws';
import { dnsLabelProblem, MAX_CLUSTER_NAME } from '../platform/dns';
import { fail } from '../core/errors';
import { Architecture } from '../platform/instance-type';
import { isUnresolvedToken } from '../core/tokens';
import { WindowsEdition, WindowsVersion } from '../platform/windows';
import { INFRA_OUTPUTS, windowsAmiOutputId } from './outputs';

/**
 * What the AWS stack deployed and the cluster objects consume (the "infra": docs/architecture.md,
 * "Words"): the typed hand-off between the cdktf side (`HybridClusterInfra`) and the cdk8s side
 * (`HybridCluster`).
 */
export interface ClusterInfraProps {
  /**
   * The cluster the AWS resources were made for: its subnets carry
   * `kubernetes.io/cluster/<name>`, so the cluster must have this name.
   * @default - not checked
   */
  readonly clusterName?: string;
  /** AWS region the resources live in. */
  readonly region: string;
  /** Id of the VPC the cluster uses (CAPA bring-your-own network). */
  readonly vpcId: string;
  /**
   * The VPC's IPv4 block: the cluster opens NodePorts to it only.
   * @default - not known (an existing VPC): NodePorts are opened to the private address ranges
   */
  readonly vpcCidrBlock?: string;
  /** Public subnets (load balancers, NAT), at least one per availability zone. */
  readonly publicSubnetIds: readonly string[];
  /** Private subnets (nodes), at least one per availability zone. */
  readonly privateSubnetIds: readonly string[];
  /**
   * The availability zone of each private subnet, in the order of `privateSubnetIds`: the
   * cluster's pools spread over these zones.
   * @default - not known: the cluster then needs its `zones`
   */
  readonly privateSubnetZones?: readonly string[];
  /** IAM instance profile for control-plane machines. */
  readonly controlPlaneInstanceProfile: string;
  /** IAM instance profile for worker machines. */
  readonly nodeInstanceProfile: string;
  /** AMI for the control plane and Linux workers. */
  readonly linuxAmiId: string;
  /**
   * Architecture of `linuxAmiId`: machines that boot it need instance types of this architecture.
   * @default Architecture.AMD64
   */
  readonly linuxAmiArchitecture?: Architecture;
  /**
   * Windows AMIs that were looked up, by version and edition.
   * @default - none: Windows pools look up Amazon's image themselves
   */
  readonly windowsAmiIds?: Readonly<Partial<Record<WindowsVersion, Readonly<Partial<Record<WindowsEdition, string>>>>>>;
  /**
   * EC2 key pair imported by the stack, if any.
   * @default - none
   */
  readonly sshKeyName?: string;
  /**
   * Type of `sshKeyName`, when the stack imported it: Windows machines cannot launch with an
   * ED25519 key.
   * @default - not known
   */
  readonly sshKeyType?: KeyPairType;
}

/** How to pick the outputs of the AWS stack out of a `cdktn deploy --outputs-file` (or `cdktf deploy`) JSON. */
export interface InfraOutputsOptions {
  /**
   * The cdktf stack whose outputs describe the cluster's AWS resources.
   * @default - the only stack in the file; required when the file holds several
   */
  readonly stackName?: string;
}

/**
 * The infra: the AWS stack's outputs for one cluster (its VPC, subnets, AMIs, instance profiles),
 * handed to `HybridCluster`. Not a Cluster API infrastructure (`K0smotronInfrastructure`), nor a
 * construct's infrastructure part (`K0sInfrastructurePart`).
 */
export class ClusterInfra {
  /** The cluster the AWS resources were made for, when known: the cluster must have this name. */
  public readonly clusterName?: string;
  /** AWS region the resources live in. */
  public readonly region: string;
  /** Id of the VPC the cluster uses (CAPA bring-your-own network). */
  public readonly vpcId: string;
  /** The VPC's IPv4 block, when the outputs hold it. */
  public readonly vpcCidrBlock?: string;
  /** Public subnets (load balancers, NAT). */
  public readonly publicSubnetIds: readonly string[];
  /** Private subnets (nodes). */
  public readonly privateSubnetIds: readonly string[];
  /** The availability zone of each private subnet, when known. */
  public readonly privateSubnetZones?: readonly string[];
  /** IAM instance profile for control-plane machines. */
  public readonly controlPlaneInstanceProfile: string;
  /** IAM instance profile for worker machines. */
  public readonly nodeInstanceProfile: string;
  /** AMI for the control plane and Linux workers. */
  public readonly linuxAmiId: string;
  /** Architecture of `linuxAmiId`. */
  public readonly linuxAmiArchitecture: Architecture;
  /** Windows AMIs that were looked up, by version and edition. */
  public readonly windowsAmiIds: NonNullable<ClusterInfraProps['windowsAmiIds']>;
  /** EC2 key pair the stack imported or was given, if any. */
  public readonly sshKeyName?: string;
  /** Type of the key pair, when the stack imported it. */
  public readonly sshKeyType?: KeyPairType;

  /** Checks every value for form once, here, so a hand-written infra is held to what the stack writes. */
  public constructor(props: ClusterInfraProps) {
    checkProps(props, PROPS);
    this.clusterName = props.clusterName;
    this.region = props.region;
    this.vpcId = props.vpcId;
    this.vpcCidrBlock = props.vpcCidrBlock;
    this.publicSubnetIds = props.publicSubnetIds;
    this.privateSubnetIds = props.privateSubnetIds;
    this.privateSubnetZones = props.privateSubnetZones;
    this.controlPlaneInstanceProfile = props.controlPlaneInstanceProfile;
    this.nodeInstanceProfile = props.nodeInstanceProfile;
    this.linuxAmiId = props.linuxAmiId;
    this.linuxAmiArchitecture = props.linuxAmiArchitecture ?? Architecture.AMD64;
    this.windowsAmiIds = props.windowsAmiIds ?? {};
    this.sshKeyName = props.sshKeyName;
    this.sshKeyType = props.sshKeyType;
  }

  /**
   * Reads the JSON file that `cdktn deploy --outputs-file <path>` (or `cdktn output --outputs-file
   * <path>`) writes for the AWS stack (`HybridClusterInfra`). Errors name the file, the stack,
   * the missing or ill-typed output and how to produce the file.
   */
  public static fromOutputsFile(path: string, options: InfraOutputsOptions = {}): ClusterInfra {
    if (typeof path !== 'string' || path === '') {
      fail('ClusterInfra.fromOutputsFile', `the outputs file path is ${JSON.stringify(path) ?? 'undefined'}`,
        'pass the path of the file `cdktn deploy --outputs-file <path>` (CDK Terrain; `cdktf deploy` on cdktf) wrote, e.g. from HYBRID_INFRA_OUTPUTS');
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      fail('ClusterInfra', `Cannot read the infrastructure outputs file ${path}: ${(e as Error).message}`, howToFix(path));
    }
    let json: unknown;
    try {
      // A UTF-8 byte-order mark (editors on Windows, PowerShell's Out-File) is not JSON text, and
      // JSON.parse refuses it; the file is valid without it (RFC 8259 section 8.1 lets a parser ignore it).
      json = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (e) {
      fail('ClusterInfra', `The infrastructure outputs file ${path} is not valid JSON: ${(e as Error).message}`, howToFix(path));
    }
    return ClusterInfra.read(json, path, options);
  }

  /**
   * Reads already parsed `cdktn deploy --outputs-file` JSON: `{ "<stackName>": { "<outputId>":
   * value } }`, with the output ids of `INFRA_OUTPUTS` and `windowsAmiOutputId`.
   */
  public static fromOutputs(json: unknown, options: InfraOutputsOptions = {}): ClusterInfra {
    return ClusterInfra.read(json, 'the outputs JSON', options);
  }

  private static read(json: unknown, source: string, options: InfraOutputsOptions): ClusterInfra {
    if (!isObject(json)) {
      fail('ClusterInfra', `${source} must be a JSON object keyed by cdktf stack name, got ${describe(json)}`, howToFix(source));
    }
    const stacks = Object.keys(json);
    // Output ids where stacks belong: one stack's outputs without the stack around them.
    const ids = new Set<string>(Object.values(INFRA_OUTPUTS));
    const topLevelIds = stacks.filter((k) => ids.has(k) || /^windows_ami_id_/.test(k));
    if (topLevelIds.length > 0 && (options.stackName === undefined || !(options.stackName in json))) {
      fail('ClusterInfra', `${source} has output ids at its top level (${topLevelIds.slice(0, 3).join(', ')}${topLevelIds.length > 3 ? ', …' : ''}), where the outputs file has one object per stack: it is one stack's outputs without its stack name`,
        `wrap them as { "<stack name>": { ... } }, or write the file as the deploy does. ${howToFix(source)}`);
    }
    let stackName = options.stackName;
    if (stackName === undefined) {
      if (stacks.length !== 1) {
        fail('ClusterInfra', `${source} holds ${stacks.length === 0 ? 'no stacks' : `several stacks (${stacks.join(', ')})`}`,
          `pass { stackName } to say which one deployed the cluster's infrastructure. ${howToFix(source)}`);
      }
      stackName = stacks[0];
    }
    const outputs = json[stackName];
    if (!isObject(outputs)) {
      fail('ClusterInfra', `${source} has no outputs for stack "${stackName}" (stacks present: ${stacks.join(', ') || 'none'})`, howToFix(source));
    }
    const where = `${source}, stack "${stackName}"`;
    const present = Object.keys(outputs).join(', ') || 'none';
    const value = (key: string): unknown => {
      if (!(key in outputs)) {
        fail('ClusterInfra', `${where}: output "${key}" is missing (outputs present: ${present})`, howToFix(source));
      }
      const v = outputs[key];
      // A token or Terraform expression (what a stack's JSON holds at synth) never resolves once written to a file.
      if ((Array.isArray(v) ? v : [v]).some((s) => typeof s === 'string' && s.includes('${'))) {
        fail('ClusterInfra', `${where}: output "${key}" is ${describe(v)}, a Terraform expression or cdktf token, which nothing resolves once it is in a file`, howToFix(source));
      }
      return v;
    };
    const str = (key: string): string => {
      const v = value(key);
      if (typeof v !== 'string' || v === '') {
        fail('ClusterInfra', `${where}: output "${key}" must be a non-empty string, got ${describe(v)}`, howToFix(source));
      }
      return v;
    };
    const list = (key: string): string[] => {
      const v = value(key);
      if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === 'string' && s !== '')) {
        fail('ClusterInfra', `${where}: output "${key}" must be a non-empty list of strings, got ${describe(v)}`, howToFix(source));
      }
      return v;
    };

    const windowsAmiIds: Partial<Record<WindowsVersion, Partial<Record<WindowsEdition, string>>>> = {};
    for (const version of Object.values(WindowsVersion)) {
      for (const edition of Object.values(WindowsEdition)) {
        const key = windowsAmiOutputId(version, edition);
        if (key in outputs) windowsAmiIds[version] = { ...windowsAmiIds[version], [edition]: str(key) };
      }
    }
    // Stacks deployed before the output existed looked up Canonical's amd64 image: the documented default.
    const arch = INFRA_OUTPUTS.linuxAmiArchitecture in outputs ? str(INFRA_OUTPUTS.linuxAmiArchitecture) : Architecture.AMD64;
    if (!(Object.values(Architecture) as string[]).includes(arch)) {
      fail('ClusterInfra', `${where}: output "${INFRA_OUTPUTS.linuxAmiArchitecture}" must be ${Object.values(Architecture).join(' or ')}, got ${describe(arch)}`, howToFix(source));
    }
    const props: ClusterInfraProps = {
      clusterName: str(INFRA_OUTPUTS.clusterName),
      region: str(INFRA_OUTPUTS.region),
      vpcId: str(INFRA_OUTPUTS.vpcId),
      // Absent when the stack used an existing VPC, and from stacks that predate it.
      vpcCidrBlock: INFRA_OUTPUTS.vpcCidrBlock in outputs ? str(INFRA_OUTPUTS.vpcCidrBlock) : undefined,
      publicSubnetIds: list(INFRA_OUTPUTS.publicSubnetIds),
      privateSubnetIds: list(INFRA_OUTPUTS.privateSubnetIds),
      // Absent from the outputs of stacks that predate it: the cluster then needs `zones`.
      privateSubnetZones: INFRA_OUTPUTS.privateSubnetZones in outputs ? list(INFRA_OUTPUTS.privateSubnetZones) : undefined,
      controlPlaneInstanceProfile: str(INFRA_OUTPUTS.controlPlaneInstanceProfile),
      nodeInstanceProfile: str(INFRA_OUTPUTS.nodeInstanceProfile),
      linuxAmiId: str(INFRA_OUTPUTS.linuxAmiId),
      linuxAmiArchitecture: arch as Architecture,
      windowsAmiIds,
      sshKeyName: INFRA_OUTPUTS.sshKeyName in outputs ? str(INFRA_OUTPUTS.sshKeyName) : undefined,
      sshKeyType: INFRA_OUTPUTS.sshKeyType in outputs ? str(INFRA_OUTPUTS.sshKeyType) as KeyPairType : undefined,
    };
    // The same check as a hand-written infra's, naming the file, the stack and the output as written in the file.
    checkProps(props, { name: (field) => `${where}: ${outputOf(field)}`, fix: howToFix(source) });
    return new ClusterInfra(props);
  }

  /** The Windows AMI for a version and edition, if the stack looked it up. */
  public windowsAmiId(version: WindowsVersion, edition: WindowsEdition): string | undefined {
    return this.windowsAmiIds[version]?.[edition];
  }
}

// EC2 resource ids are a prefix and 8 or 17 hex digits (AWSEC2 User Guide, "Resource IDs"); the
// prefix is what catches the real mistakes (a subnet for the VPC, a CIDR, a name), so the rest is
// only held to the id alphabet.
const EC2_ID = (prefix: string) => new RegExp(`^${prefix}-[0-9a-z][0-9a-z-]*$`);
// IAM names: up to 128 of letters, digits and +=,.@_- (IAM User Guide, "IAM object quotas").
const IAM_NAME = /^[\w+=,.@-]{1,128}$/;

/** How the check names a field and what it advises: the prop itself, or the output of a file. */
interface Naming {
  /** The field as the message names it. */
  readonly name: (field: string) => string;
  /** The fix for a value of the wrong form. */
  readonly fix: string;
}

/** Values written by hand: messages name the props. */
const PROPS: Naming = { name: (field) => field, fix: 'pass the value the AWS stack (HybridClusterInfra) wrote, e.g. with ClusterInfra.fromOutputsFile' };

/** The output that holds a field, as the file names it: `vpcId` → `output "vpc_id"`, `privateSubnetIds[1]` → `output "private_subnet_ids"[1]`. */
function outputOf(field: string): string {
  const windows = /^windowsAmiIds\.(\w+)\.(\w+)$/.exec(field);
  if (windows) return `output "${windowsAmiOutputId(windows[1] as WindowsVersion, windows[2] as WindowsEdition)}"`;
  const [, prop, rest] = /^(\w+)(.*)$/.exec(field) ?? [field, field, ''];
  const id = (INFRA_OUTPUTS as Readonly<Record<string, string>>)[prop];
  return id === undefined ? field : `output "${id}"${rest}`;
}

/** Every field of a ClusterInfra for form: the hand-off's one check, whether read from a file or written by hand. */
function checkProps(props: ClusterInfraProps, naming: Naming): void {
  const where = 'ClusterInfra';
  const { name, fix } = naming;
  // Messages that do not open with the field get it in front when it is named otherwise (an output).
  const at = (field: string, text: string) => (name(field) === field ? text : `${name(field)}: ${text}`);
  if (!isObject(props)) fail(where, `the props are ${describe(props)}`, fix);
  const id = (field: string, value: unknown, prefix: string) => {
    if (isUnresolvedToken(value)) return;
    if (typeof value !== 'string' || !EC2_ID(prefix).test(value)) {
      fail(where, `${name(field)} ${describe(value)} is not a ${prefix} id (${prefix}- and lower-case hex digits)`, fix);
    }
  };
  const ids = (field: 'publicSubnetIds' | 'privateSubnetIds', min: number) => {
    const list: unknown = props[field];
    if (!Array.isArray(list) || list.length < min) fail(where, `${name(field)} is ${describe(props[field])}; ${min === 0 ? 'a list' : 'at least one subnet'} is needed`, fix);
    list.forEach((s, i) => id(`${field}[${i}]`, s, 'subnet'));
    const twice = list.find((s, i) => list.indexOf(s) !== i);
    if (twice !== undefined) fail(where, `${name(field)} lists ${twice} twice`, 'list each subnet once');
  };
  if (props.clusterName !== undefined) {
    const problem = dnsLabelProblem(props.clusterName, MAX_CLUSTER_NAME);
    if (problem) fail(where, `${name('clusterName')} ${describe(props.clusterName)} ${problem}`, `the cluster side allows lower-case DNS labels of at most ${MAX_CLUSTER_NAME} characters, as the AWS stack does: redeploy it with such a name`);
  }
  const region = AwsRegion.problem(props.region);
  if (region) fail(where, at('region', region), 'use the region the AWS stack was deployed to, such as eu-north-1');
  id('vpcId', props.vpcId, 'vpc');
  ids('privateSubnetIds', 1);
  ids('publicSubnetIds', 0);
  const shared = props.publicSubnetIds.find((s) => props.privateSubnetIds.includes(s));
  if (shared !== undefined) fail(where, at('publicSubnetIds', `subnet ${shared} is listed as both public and private`), 'list each subnet under one of them');
  for (const field of ['controlPlaneInstanceProfile', 'nodeInstanceProfile'] as const) {
    const v: unknown = props[field];
    if (!isUnresolvedToken(v) && (typeof v !== 'string' || !IAM_NAME.test(v))) {
      fail(where, `${name(field)} ${describe(v)} is not an IAM instance profile name (1 to 128 of letters, digits and +=,.@_-)`, fix);
    }
  }
  const linuxAmi = amiIdProblem(props.linuxAmiId);
  if (linuxAmi) fail(where, `${name('linuxAmiId')}: ${linuxAmi}`, fix);
  const arch: unknown = props.linuxAmiArchitecture;
  if (arch !== undefined && !(Object.values(Architecture) as unknown[]).includes(arch)) {
    fail(where, `${name('linuxAmiArchitecture')} ${describe(arch)} is not one of ${Object.values(Architecture).join(', ')}`, 'use Architecture.AMD64 or Architecture.ARM64');
  }
  for (const [version, editions] of Object.entries(props.windowsAmiIds ?? {})) {
    if (!(Object.values(WindowsVersion) as string[]).includes(version)) {
      fail(where, `${name('windowsAmiIds')} has Windows version ${describe(version)}`, `use WindowsVersion (${Object.values(WindowsVersion).join(', ')})`);
    }
    for (const [edition, ami] of Object.entries(editions ?? {})) {
      if (!(Object.values(WindowsEdition) as string[]).includes(edition)) {
        fail(where, `${name('windowsAmiIds')}.${version} has edition ${describe(edition)}`, `use WindowsEdition (${Object.values(WindowsEdition).join(', ')})`);
      }
      const problem = amiIdProblem(ami);
      if (problem) fail(where, `${name(`windowsAmiIds.${version}.${edition}`)}: ${problem}`, fix);
    }
  }
  if (props.sshKeyName !== undefined && keyPairNameProblem(props.sshKeyName)) {
    fail(where, `${name('sshKeyName')} ${describe(props.sshKeyName)} is not a key pair name`, 'give the name of an EC2 key pair (1 to 255 characters), or leave it out');
  }
  const keyType: unknown = props.sshKeyType;
  if (keyType !== undefined && !(Object.values(KeyPairType) as unknown[]).includes(keyType)) {
    fail(where, `${name('sshKeyType')} ${describe(keyType)} is not one of ${Object.values(KeyPairType).join(', ')}`, fix);
  }
  const zones: unknown = props.privateSubnetZones;
  if (zones !== undefined) {
    if (!Array.isArray(zones) || zones.length !== props.privateSubnetIds.length) {
      fail(where, `${name('privateSubnetZones')} ${describe(zones)} does not name one zone per private subnet (${props.privateSubnetIds.length})`, fix);
    }
    for (const z of zones) {
      const p = AvailabilityZone.problem(z, isUnresolvedToken(props.region) ? undefined : props.region);
      if (p) fail(where, `${name('privateSubnetZones')}: ${p}`, fix);
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  return v === undefined ? 'nothing' : JSON.stringify(v);
}

function howToFix(file: string): string {
  const path = file.endsWith('.json') ? file : 'infra.json';
  return (
    `Deploy the AWS stack (HybridClusterInfra) with \`cdktn deploy --outputs-file ${path}\` ` +
    `(or write the outputs of a deployed stack with \`cdktn output --outputs-file ${path}\`; \`cdktf\` instead of \`cdktn\` on cdktf) and point HYBRID_INFRA_OUTPUTS at that file.`
  );
}
