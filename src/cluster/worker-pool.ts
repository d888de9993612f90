import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { AwsMachineTemplate } from '../generated/capa-infrastructure.cluster.x-k8s.io';
import {
  MachineDeployment,
  MachineHealthCheck,
  MachineHealthCheckSpecRemediationTriggerIfUnhealthyLessThanOrEqualTo as UnhealthyLimit,
} from '../generated/cluster-api-cluster.x-k8s.io';
import { K0sWorkerConfigTemplate, K0SWorkerConfigTemplateSpecTemplateSpec } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { taintArgument } from '../platform/windows';
import type { HybridCluster } from './hybrid-cluster';
import { apiGroupOf, CLUSTERAWSADM_INSTANCE_PROFILES } from './conventions';
import { K0sVersion } from './k0s-version';
import { hashedMachineTemplate, MachineProps, machineTemplateSpec } from './machine-template';
import { contentHash, dnsLabelProblem, MAX_MACHINE_DEPLOYMENT_NAME } from './names';
import { typedApiObject } from './typed-api-object';

/** Node label with the pool's name: set by k0s at registration, and kept in sync by CAPI. */
export const POOL_LABEL = 'node.cluster.x-k8s.io/pool';

/** Props every worker pool has. */
export interface WorkerPoolProps extends MachineProps {
  /**
   * The pool's name; the MachineDeployment is `<cluster>-<name>`.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Number of machines.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * k0s version of the pool's workers (`vX.Y.Z+k0s.N`).
   * @default - the cluster's
   */
  readonly k0sVersion?: string;
  /**
   * Extra node labels, set by k0s when the node registers.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * Replace machines whose node stays unready (a MachineHealthCheck for this pool).
   * @default - the cluster's `machineHealthChecks`
   */
  readonly machineHealthCheck?: boolean;
}

/** What a concrete pool decides for its platform. */
export interface WorkerPlatform {
  readonly os: 'linux' | 'windows';
  readonly amiId?: string;
  /** The image the pool needs, for messages: `Windows Server 2022 Core`. */
  readonly image: string;
  /** The platform's part of the K0sWorkerConfigTemplate spec (provisioner, install dir). */
  readonly bootstrap: K0SWorkerConfigTemplateSpecTemplateSpec;
  readonly taints: ReadonlyArray<{ key: string; value: string; effect: string }>;
  /** CAPI `machineNaming.template`, where the default names do not fit the platform. */
  readonly machineNamingTemplate?: string;
  /** How long a new machine may take to become a node before CAPI replaces it. */
  readonly nodeStartupTimeoutSeconds: number;
}

/**
 * A MachineDeployment of k0s workers on EC2 with its K0sWorkerConfigTemplate, AWSMachineTemplate
 * and MachineHealthCheck. Use `LinuxWorkerPool` or `WindowsWorkerPool`.
 */
export abstract class WorkerPool extends Construct {
  public readonly cluster: HybridCluster;
  public readonly poolName: string;
  /** Name of the MachineDeployment (and of the pool's other objects, before their hash). */
  public readonly deploymentName: string;
  public readonly replicas: number;
  public readonly k0sVersion: string;
  public readonly os: 'linux' | 'windows';
  public readonly instanceType: string;
  public readonly machineDeployment: ApiObject;
  public readonly workerConfigTemplate: ApiObject;
  public readonly machineTemplate: ApiObject;
  public readonly machineHealthCheck?: ApiObject;

  protected constructor(cluster: HybridCluster, id: string, props: WorkerPoolProps, platform: WorkerPlatform) {
    super(cluster, id);
    this.cluster = cluster;
    this.poolName = props.name ?? id;
    this.deploymentName = `${cluster.clusterName}-${this.poolName}`;
    this.replicas = props.replicas ?? 1;
    this.k0sVersion = props.k0sVersion ?? cluster.k0sVersion;
    this.os = platform.os;
    this.instanceType = props.instanceType;

    this.machineTemplate = hashedMachineTemplate(this, 'AWSMachineTemplate', this.deploymentName, machineTemplateSpec(props, {
      os: platform.os,
      amiId: platform.amiId,
      iamInstanceProfile: props.iamInstanceProfile ?? cluster.infra?.nodeInstanceProfile ?? CLUSTERAWSADM_INSTANCE_PROFILES.nodes,
      sshKeyName: cluster.sshKeyName,
      additionalTags: cluster.additionalTags,
    }));

    const labels = { [POOL_LABEL]: this.poolName, ...props.labels };
    const bootstrap: K0SWorkerConfigTemplateSpecTemplateSpec = {
      version: this.k0sVersion,
      args: [
        `--labels=${Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',')}`,
        ...(platform.taints.length > 0 ? [`--taints=${platform.taints.map(taintArgument).join(',')}`] : []),
      ],
      ...platform.bootstrap,
    };
    // Bootstrap templates are read when a machine is created: a new name makes a change roll out.
    this.workerConfigTemplate = typedApiObject(this, 'K0sWorkerConfigTemplate', K0sWorkerConfigTemplate, {
      metadata: { name: `${this.deploymentName}-${contentHash(bootstrap)}` },
      spec: { template: { spec: bootstrap } },
    });

    const selectorLabels = { 'cluster.x-k8s.io/cluster-name': cluster.clusterName, [POOL_LABEL]: this.poolName };
    this.machineDeployment = typedApiObject(this, 'MachineDeployment', MachineDeployment, {
      metadata: { name: this.deploymentName },
      spec: {
        clusterName: cluster.clusterName,
        replicas: this.replicas,
        selector: { matchLabels: selectorLabels },
        machineNaming: platform.machineNamingTemplate ? { template: platform.machineNamingTemplate } : undefined,
        template: {
          metadata: { labels: selectorLabels },
          spec: {
            clusterName: cluster.clusterName,
            version: this.k0sVersion,
            bootstrap: {
              configRef: {
                apiGroup: apiGroupOf(K0sWorkerConfigTemplate.GVK.apiVersion),
                kind: K0sWorkerConfigTemplate.GVK.kind,
                name: this.workerConfigTemplate.name,
              },
            },
            infrastructureRef: {
              apiGroup: apiGroupOf(AwsMachineTemplate.GVK.apiVersion),
              kind: AwsMachineTemplate.GVK.kind,
              name: this.machineTemplate.name,
            },
          },
        },
      },
    });

    if (props.machineHealthCheck ?? cluster.machineHealthChecks) {
      this.machineHealthCheck = typedApiObject(this, 'MachineHealthCheck', MachineHealthCheck, {
        metadata: { name: this.deploymentName },
        spec: {
          clusterName: cluster.clusterName,
          selector: { matchLabels: selectorLabels },
          checks: {
            nodeStartupTimeoutSeconds: platform.nodeStartupTimeoutSeconds,
            unhealthyNodeConditions: ['False', 'Unknown'].map((status) => ({ type: 'Ready', status, timeoutSeconds: 300 })),
          },
          // Stop remediating when many machines fail at once: that is an outage, not a bad machine.
          remediation: { triggerIf: { unhealthyLessThanOrEqualTo: UnhealthyLimit.fromString('40%') } },
        },
      });
    }

    this.node.addValidation({ validate: () => [...this.commonProblems(props, platform), ...this.platformProblems()] });
  }

  /** Problems particular to the platform; each names the offending value and the fix. */
  protected abstract platformProblems(): string[];

  private commonProblems(props: WorkerPoolProps, platform: WorkerPlatform): string[] {
    const problems: string[] = [];
    const nameProblem = dnsLabelProblem(this.deploymentName, MAX_MACHINE_DEPLOYMENT_NAME);
    if (nameProblem) {
      problems.push(`MachineDeployment name "${this.deploymentName}" (cluster name + pool name) ${nameProblem}. Fix: give the pool a shorter lower-case \`name\` (or the cluster a shorter one).`);
    }
    if (!Number.isInteger(this.replicas) || this.replicas < 0) {
      problems.push(`replicas ${this.replicas} is not a whole number >= 0. Fix: set \`replicas\` to 0 or more.`);
    }
    if (!K0sVersion.parse(this.k0sVersion)) {
      problems.push(`k0s version "${this.k0sVersion}" is not of the form vX.Y.Z+k0s.N. Fix: write it like "v1.34.2+k0s.0".`);
    }
    if (!platform.amiId) {
      const where = this.cluster.infra ? `the cluster's infra has no ${platform.image} AMI` : 'the cluster has no infra to take one from';
      problems.push(`no AMI for this pool's ${platform.image} machines: it has no \`ami\`, and ${where}. Fix: pass \`ami: MachineImage.id('ami-…')\`, or have HybridClusterInfra look up ${platform.image} (its \`images\` prop) and redeploy.`);
    } else if (!platform.amiId.startsWith('ami-')) {
      problems.push(`AMI "${platform.amiId}" is not an AMI id. Fix: pass an id of the form ami-0123456789abcdef0.`);
    }
    if (props.rootVolumeSizeGiB !== undefined && !(Number.isInteger(props.rootVolumeSizeGiB) && props.rootVolumeSizeGiB >= 8)) {
      problems.push(`rootVolumeSizeGiB ${props.rootVolumeSizeGiB} is not a whole number >= 8 (CAPA's minimum). Fix: choose a larger size.`);
    }
    return problems;
  }
}
