import { Size } from 'cdk8s';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { kplus } from './cdk8s-plus';
import { choice, data, list, optional, PropEntry, PropKind, propsSpec, record, required, text } from '../core/props-spec';
import { brief, listOf, refuse } from '../core/values';
import { dnsLabelProblem } from '../platform/dns';
import { dropChartNamespace } from '../platform/cluster-scope';
import { WindowsVersion } from '../platform/windows';
import { WindowsWorkload, WindowsWorkloadKind } from './windows-workload';

/**
 * The Fluent Bit release whose Windows images `WindowsFluentBit` pins by default (fluent/fluent-bit
 * release v5.1.3; the Windows image tags below are as the release workflows build them at v5.1.1).
 */
export const FLUENT_BIT_VERSION = '5.1.3';

/**
 * Fluent Bit's Windows images per Windows Server release: Server Core images built for one LTSC
 * release each, tagged `windows-<release>-<version>` (fluent/fluent-bit v5.1.1
 * .github/workflows/call-build-images.yaml, job call-build-windows-container: windows-2022 and
 * windows-2025, from dockerfiles/Dockerfile.windows on servercore:ltsc<release>; staging-release.yaml,
 * job staging-release-images-windows, pushes them to docker.io/fluent/fluent-bit). Process isolation
 * runs an image only on its own release's hosts (from 2025 on, 2022 images too), so each build of
 * node gets its own DaemonSet. No Windows Server 2019 image is published any more.
 */
export function fluentBitWindowsImage(version: WindowsVersion, fluentBitVersion: string = FLUENT_BIT_VERSION): string | undefined {
  return version === WindowsVersion.SERVER_2019 ? undefined : `fluent/fluent-bit:windows-${version}-${fluentBitVersion}`;
}

/**
 * Where the kubelet has containerd write container logs on a Windows node: `C:\var\log\pods`
 * (the kubelet's default `podLogsDir`, `/var/log/pods`, which resolves on the system drive; k0s
 * leaves it at the default: k0sproject/k0s pkg/component/worker/kubelet.go,
 * prepareLocalKubeletConfig; the EKS Windows AMI's bootstrap is not public, and Fluent Bit's
 * Windows guide reads the same paths) and the `C:\var\log\containers` symlinks the
 * kubelet keeps beside them, named `<pod>_<namespace>_<container>-<id>.log` (kubernetes
 * pkg/kubelet/kuberuntime/kuberuntime_container.go, legacyLogSymlink; Fluent Bit's "Windows
 * deployment" guide follows them). Both sit under one mount so that the symlinks resolve.
 */
export const WINDOWS_LOG_DIR = 'C:\\var\\log';
const CONTAINER_LOGS = `${WINDOWS_LOG_DIR}\\containers\\*.log`;
/** Tail positions on the host, so that a restarted agent neither re-sends nor skips lines. */
const STATE_DIR = 'C:\\var\\lib\\fluent-bit';
/**
 * The image keeps fluent-bit.exe in C:\fluent-bit\bin and its own configuration in
 * C:\fluent-bit\etc (fluent/fluent-bit v5.1.1 dockerfiles/Dockerfile.windows); the pod's `command`
 * replaces the image's ENTRYPOINT and CMD and reads ours from a directory of its own.
 */
const CONFIG_DIR = 'C:\\fluent-bit\\config';

/**
 * The API server's in-cluster name, fully qualified: Windows pods may not resolve the short
 * `kubernetes.default.svc` (Fluent Bit's Windows deployment guide sets `kube_url` to it; the
 * filter's default is `https://kubernetes.default.svc:443`).
 */
export const KUBE_URL_FQDN = 'https://kubernetes.default.svc.cluster.local:443';

/** A Fluent Bit property value: one scalar, or a list for a property the plugin takes more than once. */
export type FluentBitValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

/**
 * One entry of the YAML configuration's `pipeline.outputs`: the plugin's `name` and its properties,
 * and optionally `processors` (per signal, `logs`, `metrics` or `traces`, a list of processors),
 * the one nested key an output takes (Fluent Bit docs, administration/configuring-fluent-bit/yaml/pipeline-section).
 */
export type FluentBitOutput = Readonly<Record<string, FluentBitValue | FluentBitProcessors>>;

/** An output's processors, per signal. */
export type FluentBitProcessors = Readonly<Record<string, ReadonlyArray<Readonly<Record<string, unknown>>>>>;

/** Props of `WindowsFluentBit`. */
export interface WindowsFluentBitProps {
  /**
   * The Windows Server releases of the cluster's Windows nodes: one DaemonSet per release, pinned
   * to it with `node.kubernetes.io/windows-build` and running that release's image.
   */
  readonly versions: readonly WindowsVersion[];
  /**
   * Namespace of the agent (its service account is bound to read pod metadata cluster-wide).
   */
  readonly namespace: string;
  /**
   * Fluent Bit `outputs` (the YAML configuration's `pipeline.outputs` entries), e.g.
   * `[{ name: 'cloudwatch_logs', match: 'kube.*', region: 'eu-north-1', log_group_name: '/eks/windows', auto_create_group: 'true' }]`.
   * @default - stdout, for a first look with `kubectl logs`
   */
  readonly outputs?: ReadonlyArray<FluentBitOutput>;
  /**
   * An image per release instead of `fluentBitWindowsImage`'s (required for Windows Server 2019).
   * @default - fluent/fluent-bit:windows-<release>-FLUENT_BIT_VERSION
   */
  readonly images?: Partial<Record<WindowsVersion, string>>;
  /**
   * The API server URL the Kubernetes filter calls.
   * @default KUBE_URL_FQDN
   */
  readonly kubeUrl?: string;
}

/** Plain data, copied: what the checks below passed is what is written, with no getter or proxy left. */
const PLAIN_OUTPUTS = data<FluentBitOutput[]>('a list of Fluent Bit outputs', Array.isArray, 'give an array of outputs, e.g. [{ name: "stdout", match: "*" }]');

/**
 * The `outputs` as Fluent Bit's YAML configuration takes them: each a map of a plugin's properties
 * with its `name` (Fluent Bit refuses an output without one and does not start), whose values are
 * strings, finite numbers, booleans or lists of them (a property given more than once); a nested
 * map only under `processors`, the one nested key an output has: elsewhere no plugin reads it. Keys
 * are plain own keys, never `__proto__` or `constructor`, at any depth.
 */
const FLUENT_BIT_OUTPUTS: PropKind<FluentBitOutput[]> = {
  parse: (at, value) => {
    const outputs = listOf<unknown>(at, value)!;
    const where = (prop: string) => ({ path: at.path, prop });
    const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
    const plainMap = (prop: string, v: unknown): Record<string, unknown> => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) refuse(where(prop), `${brief(v)} is not a map`, 'give a map of property names and values');
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) refuse(where(prop), `${brief(v)} is not a plain object (it has a prototype of its own, e.g. a \`__proto__\` key in a literal)`, 'give a plain object of property names and values');
      for (const key of Object.keys(v)) {
        if (key === '__proto__' || key === 'constructor' || key.trim() === '') refuse(where(prop), `${brief(v)} has the key ${JSON.stringify(key)}, which is no Fluent Bit property`, `rename the key ${JSON.stringify(key)}`);
      }
      return v as Record<string, unknown>;
    };
    const nested = (prop: string, v: unknown): void => {
      if (Array.isArray(v)) v.forEach((item, i) => nested(`${prop}[${i}]`, item));
      else if (v !== null && typeof v === 'object') Object.entries(plainMap(prop, v)).forEach(([k, x]) => nested(`${prop}.${k}`, x));
    };
    outputs.forEach((output, i) => {
      const prop = `${at.prop}[${i}]`;
      for (const [key, v] of Object.entries(plainMap(prop, output))) {
        if (key === 'processors') {
          nested(`${prop}.processors`, v);
          continue;
        }
        if (scalar(v) || (Array.isArray(v) && v.length > 0 && v.every(scalar))) continue;
        refuse(where(`${prop}.${key}`), `${brief(v)} is not a string, finite number or boolean (or a list of them): no output plugin reads a nested map there`,
          typeof v === 'object' && v !== null && !Array.isArray(v) ? `write it as the plugin documents it, e.g. a string "${Object.entries(v).map(([k, x]) => `${k}=${String(x)}`).join(',')}"` : `give ${key} a string value`);
      }
      const name = (output as Record<string, unknown>).name;
      if (typeof name !== 'string' || name.trim() === '') refuse(where(prop), `${brief(output)} has no name, and Fluent Bit refuses an output without one and does not start`, 'add name: the output plugin, e.g. "cloudwatch_logs" or "stdout"');
    });
    return PLAIN_OUTPUTS.parse(at, outputs);
  },
  constraint: 'a list of Fluent Bit outputs: maps of a plugin\'s properties with its `name`, each a string, finite number or boolean or a list of them; a nested map only under `processors`',
  edges: [[], [{ name: 'stdout', match: '*' }], [{ match: '*' }], [{ name: 'http', header: { a: 'b' } }], { name: 'stdout' }],
};

/** An image reference. */
const IMAGE = text({ max: 512, form: 'an image reference', example: fluentBitWindowsImage(WindowsVersion.SERVER_2022) });

/**
 * The spec of `WindowsFluentBitProps`.
 * @internal
 */
export const WINDOWS_FLUENT_BIT_PROPS = propsSpec<WindowsFluentBitProps>('WindowsFluentBit', {
  versions: required(list(choice(WindowsVersion, 'WindowsVersion'), { min: 1 }), 'list the Windows Server releases of your Windows nodes, e.g. [WindowsVersion.SERVER_2022]'),
  namespace: required(text({ max: 63, form: 'a namespace name (a DNS label)', example: 'logging', problem: dnsLabelProblem }), 'give the agent\'s namespace, e.g. logging'),
  outputs: optional(FLUENT_BIT_OUTPUTS),
  images: optional(record(propsSpec<Partial<Record<WindowsVersion, string>>>('WindowsFluentBit images',
    Object.fromEntries(Object.values(WindowsVersion).map((v) => [v, optional(IMAGE)])) as { readonly [K in WindowsVersion]-?: PropEntry }))),
  // The filter takes only http:// and https:// URLs, and fails to start on any other
  // (fluent/fluent-bit plugins/filter_kubernetes/kube_conf.c, flb_kube_conf_create).
  kubeUrl: optional(text({
    max: 2048, pattern: /^https?:\/\/[^/:\s]+(:\d+)?\/?$/, form: 'http(s)://<host>[:<port>], which the Kubernetes filter requires',
    fix: `write it with its scheme, e.g. ${KUBE_URL_FQDN}`,
  })),
});

/**
 * Ships Windows nodes' container logs: Fluent Bit as a DaemonSet per Windows Server release (its
 * images are Server Core, so process-isolated and per build), reading the containerd logs under
 * `C:\var\log` through a hostPath mount (an ordinary container, not HostProcess: it needs files,
 * not the host's network or services), parsing them with the built-in `cri` parser, and adding pod
 * metadata through the Kubernetes filter with an explicit `kube_url`. Fluent Bit's Helm chart is
 * Linux-only (fluent/helm-charts#369), so run it beside the Linux log agent of your choice.
 */
export class WindowsFluentBit extends Construct {
  /** The DaemonSets, one per release in `versions` order. */
  public readonly daemonSets: readonly WindowsWorkload[];
  /** The Fluent Bit configuration (fluent-bit.yaml). */
  public readonly config: kplus.ConfigMap;

  public constructor(scope: Construct, id: string, given: WindowsFluentBitProps) {
    super(scope, id);
    const props = WINDOWS_FLUENT_BIT_PROPS.parse(this.node.path, given);
    const versions = [...new Set(props.versions)];
    for (const v of versions) {
      if (props.images?.[v] === undefined && fluentBitWindowsImage(v) === undefined) {
        refuse({ path: this.node.path, prop: 'versions' }, `${brief(props.versions)}: Fluent Bit publishes no Windows Server ${v} image (its release workflow builds windows-2022 and windows-2025 only)`, `give images: { '${v}': '<your image built from dockerfiles/Dockerfile.windows with WINDOWS_VERSION=ltsc${v}>' }`);
      }
    }
    const metadata = { namespace: props.namespace };
    const kubeUrl = props.kubeUrl ?? KUBE_URL_FQDN;
    const outputs = props.outputs;

    this.config = new kplus.ConfigMap(this, 'Config', {
      metadata,
      data: {
        'fluent-bit.yaml': stringify({
          service: { flush: 5, log_level: 'info', http_server: 'on', http_port: 2020 },
          parsers: [{
            // Takes namespace, pod, container and container id back out of the tag composed below, under
            // the names the Kubernetes filter reads (fluent/fluent-bit v5.1.1 plugins/filter_kubernetes/
            // kube_meta.c reads pod_name, namespace_name, container_name, docker_id and container_hash).
            name: 'kube-tag', format: 'regex',
            regex: '^(?<namespace_name>[^_]+)\\.(?<pod_name>[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)\\.(?<container_name>.+)\\.(?<docker_id>[a-z0-9]{64})$',
          }],
          pipeline: {
            inputs: [{
              name: 'tail',
              path: CONTAINER_LOGS,
              // containerd writes the CRI log format, not Docker's JSON: the built-in cri parser
              // joins partial lines (Fluent Bit docs, pipeline/inputs/tail "Multiline core").
              'multiline.parser': 'cri',
              // The tag from the file name, not the path: a Windows path does not become the
              // kube.var.log.containers. prefix the filter expects (Fluent Bit docs,
              // pipeline/filters/kubernetes, "Custom tags for enhanced filtering").
              tag: 'kube.<namespace_name>.<pod_name>.<container_name>.<docker_id>',
              tag_regex: '(?<pod_name>[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)_(?<namespace_name>[^_]+)_(?<container_name>.+)-(?<docker_id>[a-z0-9]{64})\\.log$',
              db: `${STATE_DIR}\\tail.db`,
              mem_buf_limit: '16MB',
              skip_long_lines: 'on',
              refresh_interval: 10,
            }],
            filters: [{
              name: 'kubernetes',
              match: 'kube.*',
              kube_url: kubeUrl,
              kube_tag_prefix: 'kube.',
              regex_parser: 'kube-tag',
              merge_log: 'on',
              // Windows pods may have no DNS for a while after the node boots (Fluent Bit's
              // Windows deployment guide): wait up to 5 minutes instead of exiting.
              dns_retries: 10,
              dns_wait_time: 30,
            }],
            outputs: outputs ?? [{ name: 'stdout', match: '*' }],
          },
        }),
      },
    });

    const serviceAccount = new kplus.ServiceAccount(this, 'ServiceAccount', { metadata });
    // The Kubernetes filter reads pods (labels, annotations) and namespaces.
    const role = new kplus.k8s.KubeClusterRole(this, 'ClusterRole', {
      rules: [{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }],
    });
    dropChartNamespace(role);
    const binding = new kplus.k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.name },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount.name, namespace: props.namespace }],
    });
    dropChartNamespace(binding);

    this.daemonSets = versions.map((version) => {
      const image = props.images?.[version] ?? fluentBitWindowsImage(version)!;
      const ds = new WindowsWorkload(this, `DaemonSet${version}`, {
        kind: WindowsWorkloadKind.DAEMON_SET,
        metadata,
        version,
        image,
        serviceAccount,
        // The Kubernetes filter authenticates with the pod's token.
        automountServiceAccountToken: true,
        main: {
          name: 'fluent-bit',
          command: ['C:\\fluent-bit\\bin\\fluent-bit.exe', '-c', `${CONFIG_DIR}\\fluent-bit.yaml`],
          ports: [{ number: 2020, name: 'http' }],
          imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
          resources: { cpu: { request: kplus.Cpu.millis(100) }, memory: { request: Size.mebibytes(128), limit: Size.mebibytes(512) } },
          // Its own HTTP server answers once the pipeline runs (Fluent Bit docs, administration/monitoring).
          liveness: kplus.Probe.fromHttpGet('/', { port: 2020 }),
        },
      });
      const main = ds.workload.containers[0];
      main.mount(CONFIG_DIR, kplus.Volume.fromConfigMap(ds, 'ConfigVolume', this.config));
      main.mount(WINDOWS_LOG_DIR, kplus.Volume.fromHostPath(ds, 'LogsVolume', 'logs', { path: WINDOWS_LOG_DIR }), { readOnly: true });
      main.mount(STATE_DIR, kplus.Volume.fromHostPath(ds, 'StateVolume', 'state', { path: STATE_DIR, type: kplus.HostPathVolumeType.DIRECTORY_OR_CREATE }));
      return ds;
    });
  }
}
