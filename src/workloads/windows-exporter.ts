import { ApiObject, JsonPatch, Size } from 'cdk8s';
import { kplus } from './cdk8s-plus';
import { Construct } from 'constructs';
import { WindowsWorkload, WindowsWorkloadKind } from './windows-workload';
import { checked, optional, propsSpec, text } from '../core/props-spec';
import { inboundFirewallRuleScript, WINDOWS_EXPORTER_PORT } from '../platform/windows';

/** windows_exporter release pinned by default (prometheus-community/windows_exporter). */
export const WINDOWS_EXPORTER_IMAGE = 'ghcr.io/prometheus-community/windows-exporter:0.31.8';

/** The built-in priority class of node agents (kubernetes pkg/apis/scheduling/types.go). */
const SYSTEM_NODE_CRITICAL = 'system-node-critical';

/** Props of `WindowsExporter`. What each prop takes, as the construct checks it: docs/props.md. */
export interface WindowsExporterProps {
  /**
   * windows_exporter image.
   * @default WINDOWS_EXPORTER_IMAGE
   */
  readonly image?: string;

  /**
   * Collectors to enable, in windows_exporter's `collectors.enabled` syntax.
   * @default '[defaults],container'
   */
  readonly collectors?: string;

  /**
   * The pods' priority class. A DaemonSet pod without one cannot preempt anything, so on a node
   * whose capacity is taken it stays Pending and that node's metrics are missing when they matter
   * most. `system-node-critical` exists in every cluster (kubernetes pkg/apis/scheduling/types.go,
   * `SystemNodeCritical`; the priority admission plugin creates it) and may be used in any
   * namespace unless a ResourceQuota limits it. `''` leaves the pods without a class.
   * @default 'system-node-critical'
   */
  readonly priorityClassName?: string;

  /**
   * Metadata of the DaemonSet (e.g. a `monitoring` namespace).
   * @default - generated name, chart namespace
   */
  readonly metadata?: { readonly namespace?: string };
}

/**
 * The spec of `WindowsExporterProps`.
 * @internal
 */
export const WINDOWS_EXPORTER_PROPS = propsSpec<WindowsExporterProps>('WindowsExporter', {
  image: optional(text({ max: 512, form: 'an image reference', example: WINDOWS_EXPORTER_IMAGE })),
  // Collector names and the `[defaults]` placeholder, comma-separated (windows_exporter v0.31.8
  // pkg/types/const.go, DefaultCollectors and DefaultCollectorsPlaceholder); the value is written
  // between single quotes in config.yml, where a quote or a line break would end it.
  collectors: optional(text({ max: 1024, pattern: /^(\[defaults\]|[a-z0-9_]+)( *, *(\[defaults\]|[a-z0-9_]+))*$/, form: 'collector names separated by commas', example: '[defaults],container,memory' })),
  // '' for none; else a PriorityClass name, a DNS subdomain (kubernetes pkg/apis/scheduling/validation).
  priorityClassName: optional(text({ max: 253, min: 0, form: 'a PriorityClass name', example: 'system-node-critical' })),
  metadata: optional(checked(propsSpec<{ readonly namespace?: string }>('WindowsExporter metadata', {
    namespace: optional(text({ max: 63, form: 'a namespace name', example: 'monitoring' })),
  }))),
});

/**
 * Prometheus node metrics for every Windows node: windows_exporter as a HostProcess DaemonSet on
 * the host network (port 9182 on each node, no hostPort needed), configured through a ConfigMap,
 * following the project's documented Kubernetes deployment. An init container opens 9182 in the
 * Windows firewall; the cluster's security groups must admit it too (`HybridCluster`
 * `nodeAgentPorts: [WINDOWS_EXPORTER_PORT]`).
 */
export class WindowsExporter extends Construct {
  /** The DaemonSet. */
  public readonly daemonSet: WindowsWorkload;
  /** windows_exporter's configuration. */
  public readonly config: kplus.ConfigMap;

  constructor(scope: Construct, id: string, given?: WindowsExporterProps) {
    super(scope, id);
    const props = WINDOWS_EXPORTER_PROPS.parse(this.node.path, given);
    this.config = new kplus.ConfigMap(this, 'Config', {
      metadata: props.metadata,
      data: {
        // windows_exporter decodes this file with unknown fields refused and exits on any
        // (v0.31.8 internal/config/config.go, NewConfigFileResolver: KnownFields(true)); the
        // service collector takes `include`/`exclude` regular expressions
        // (internal/collector/service/service.go). `services-where` was removed in 0.29.
        'config.yml': [
          'collectors:',
          `  enabled: '${props.collectors ?? '[defaults],container'}'`,
          'collector:',
          '  service:',
          '    include: "containerd|kubelet"',
          '',
        ].join('\n'),
      },
    });

    const image = props.image ?? WINDOWS_EXPORTER_IMAGE;
    this.daemonSet = new WindowsWorkload(this, 'DaemonSet', {
      kind: WindowsWorkloadKind.DAEMON_SET,
      metadata: props.metadata,
      hostProcess: true,
      // Performance counters of services and containers need the system account.
      runAsUserName: 'NT AUTHORITY\\SYSTEM',
      image,
      // The Windows firewall drops inbound 9182 otherwise, as upstream's manifest shows
      // (kubernetes/windows-exporter-daemonset.yaml, v0.31.8). A HostProcess container runs on the
      // host, so the host's PowerShell does it, from the exporter's own image (no second pull),
      // and only once per node.
      initContainers: [{
        name: 'configure-firewall',
        image,
        command: ['powershell.exe'],
        args: ['-NoProfile', '-NonInteractive', '-Command', inboundFirewallRuleScript(`windows-exporter-${WINDOWS_EXPORTER_PORT}`, WINDOWS_EXPORTER_PORT)],
        // One PowerShell command that exits in seconds. A pod's effective request is the larger
        // of its largest init request and the sum of its app containers' (Kubernetes docs
        // concepts/workloads/pods/init-containers.md, "Resource sharing within containers";
        // k8s.io/component-helpers resource/helpers.go, AggregateContainerRequests), so the
        // Windows defaults (500m, 512Mi) would reserve that much on every node for good. Under
        // the exporter's own requests, it reserves nothing beyond them.
        resources: { cpu: { request: kplus.Cpu.millis(50) }, memory: { request: Size.mebibytes(100) } },
      }],
      main: {
        name: 'windows-exporter',
        // HostProcess containers see their volumes under the sandbox mount point.
        args: ['--config.file=%CONTAINER_SANDBOX_MOUNT_POINT%/config.yml'],
        ports: [{ number: WINDOWS_EXPORTER_PORT, name: 'http' }],
        imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
        // An exporter is light; the Windows default requests would reserve far more than it uses.
        resources: { cpu: { request: kplus.Cpu.millis(100) }, memory: { request: Size.mebibytes(128), limit: Size.mebibytes(256) } },
      },
    });
    const priorityClassName = props.priorityClassName ?? SYSTEM_NODE_CRITICAL;
    if (priorityClassName !== '') ApiObject.of(this.daemonSet.workload).addJsonPatch(JsonPatch.add('/spec/template/spec/priorityClassName', priorityClassName));
    const main = this.daemonSet.workload.containers[0];
    main.mount('/config.yml', kplus.Volume.fromConfigMap(this, 'ConfigVolume', this.config), { subPath: 'config.yml' });
  }
}
