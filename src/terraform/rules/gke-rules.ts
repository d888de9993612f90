import { Finding, registry, rule } from '../../rules/engine/rule';
import {
  GKE_DISK_TYPES, GKE_LIMITS, GKE_WINDOWS_MINIMUM_MINOR, gkeMinorOf, GKE_LINUX_IMAGE_TYPES, GKE_OS_VERSION_UNSPECIFIED, GKE_RETIRED_IMAGE_TYPES, GKE_TAINT_EFFECT, GKE_WINDOWS_IMAGE_TYPE,
  GKE_WINDOWS_OS_VERSIONS, GkeReleaseChannel, gceHyperdiskOnly, gceMachineTypeProblem, gkeVersionProblem, gkeWindowsMachineTypeProblem, gkeWindowsVersionOf,
} from '../../platform/gke';
import { labelKeyProblem, labelValueProblem, nodeLabelProblem } from '../../platform/labels';
import { integerProblem } from '../../core/numbers';
import { formatCidr, parseCidr } from '../../platform/cidr';
import { WindowsPlatform, windowsSupport } from '../../platform/support';
import { TerraformBlock, TerraformGraph, TerraformRule, blockViolation, isExpression, list, repeatedKeys, single } from '../graph';

/**
 * The GKE rules over the final Terraform JSON: what the GKE API and
 * hashicorp/terraform-provider-google refuse (or accept and then fail on at apply), and what a
 * cluster with Windows Server node pools needs to run Windows pods. Each rule cites the provider
 * source (v7.45.0, `google/services/container/`) or the GKE document whose behaviour it encodes.
 */

/** Upper-cased: the provider compares image types case-insensitively (`tpgresource.CaseDiffSuppress`). */
function imageTypeOf(pool: TerraformBlock): unknown {
  const image = single(pool.body.node_config).image_type;
  return typeof image === 'string' && !isExpression(image) ? image.toUpperCase() : image;
}

function isWindowsPool(pool: TerraformBlock): boolean {
  return imageTypeOf(pool) === GKE_WINDOWS_IMAGE_TYPE;
}

/** The cluster a node pool's `cluster` refers to (`${google_container_cluster.x.name}` or `.id`), if it is in the graph. */
function clusterOf(graph: TerraformGraph, pool: TerraformBlock): TerraformBlock | undefined {
  const target = graph.resolve(pool, pool.body.cluster);
  return target?.type === 'google_container_cluster' ? target : undefined;
}

/** The node pools of a cluster: by reference, or by its literal name. */
function poolsOf(graph: TerraformGraph, cluster: TerraformBlock): TerraformBlock[] {
  return graph.ofType('google_container_node_pool').filter((p) => p.stack === cluster.stack
    && (clusterOf(graph, p) === cluster || (typeof cluster.body.name === 'string' && p.body.cluster === cluster.body.name)));
}

function nameProblem(name: unknown, limit: { readonly max: number; readonly pattern: RegExp }): boolean {
  return typeof name !== 'string' || name.length > limit.max || !limit.pattern.test(name);
}

// RFC 3339 date-times as the provider's verify.ValidateRFC3339Date takes them (time.Parse(time.RFC3339, …)).
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The cluster: a name the provider takes (resource_container_cluster.go `name` ValidateFunc), a
 * GKE version, a release channel of the provider's enum (`release_channel.channel`), a
 * maintenance window the provider parses (`recurring_window` start and end RFC 3339 dates
 * (`verify.ValidateRFC3339Date`), an RRULE recurrence; `daily_maintenance_window.start_time`
 * `HH:MM`, `verify.ValidateRFC3339Time`), and the default pool removed with `initial_node_count`
 * of at least 1 (the provider's description of `remove_default_node_pool`: GKE creates the default
 * pool before Terraform removes it).
 */
const gkeCluster = rule<TerraformGraph>({
  name: 'gke-cluster',
  scope: 'object',
  description: 'A GKE cluster has a name, version, release channel and maintenance window the provider takes, and a default pool of at least one node while it is removed',
  source: 'hashicorp/terraform-provider-google v7.45.0 google/services/container/resource_container_cluster.go (name ValidateFunc, release_channel, maintenance_policy, remove_default_node_pool)',
  check: (graph) => graph.ofType('google_container_cluster').flatMap((cluster) => {
    const out: Finding[] = [];
    const v = (what: string, fix: string, field: string) => out.push(blockViolation(cluster, what, fix, field));
    const body = cluster.body;
    if (!isExpression(body.name) && nameProblem(body.name, GKE_LIMITS.clusterName)) {
      v(`cluster name ${JSON.stringify(body.name)} is not a GKE cluster name`, `use 1 to ${GKE_LIMITS.clusterName.max} lower-case letters, digits and -, starting with a letter and not ending with -`, 'name');
    }
    if (body.min_master_version !== undefined && !isExpression(body.min_master_version)) {
      const p = gkeVersionProblem(body.min_master_version);
      if (p) v(p, 'write a minor version GKE offers in the release channel, e.g. "1.33"', 'min_master_version');
    }
    const channel = single(body.release_channel).channel;
    if (channel !== undefined && !isExpression(channel) && channel !== 'UNSPECIFIED' && !(Object.values(GkeReleaseChannel) as unknown[]).includes(channel)) {
      v(`release channel ${JSON.stringify(channel)} is not one of ${Object.values(GkeReleaseChannel).join(', ')}`, 'use a GkeReleaseChannel', 'release_channel.channel');
    }
    const policy = single(body.maintenance_policy);
    const recurring = single(policy.recurring_window);
    for (const key of ['start_time', 'end_time'] as const) {
      const t = recurring[key];
      if (t !== undefined && !isExpression(t) && !(typeof t === 'string' && RFC3339.test(t))) {
        v(`maintenance window ${key} ${JSON.stringify(t)} is not an RFC 3339 date-time`, 'write e.g. "2026-01-03T02:00:00Z"', `maintenance_policy.recurring_window.${key}`);
      }
    }
    const recurrence = recurring.recurrence;
    if (recurrence !== undefined && !isExpression(recurrence) && !(typeof recurrence === 'string' && /^FREQ=(DAILY|WEEKLY|MONTHLY|YEARLY)(;[A-Z]+=[A-Z0-9,+-]+)*$/.test(recurrence))) {
      v(`maintenance recurrence ${JSON.stringify(recurrence)} is not an RFC 5545 RRULE`, 'write e.g. "FREQ=WEEKLY;BYDAY=SA,SU"', 'maintenance_policy.recurring_window.recurrence');
    }
    const daily = single(policy.daily_maintenance_window).start_time;
    if (daily !== undefined && !isExpression(daily) && !(typeof daily === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(daily))) {
      v(`daily maintenance start_time ${JSON.stringify(daily)} is not HH:MM`, 'write e.g. "03:00" (GMT)', 'maintenance_policy.daily_maintenance_window.start_time');
    }
    // cidr_block: validation.IsCIDRNetwork(0, 32), which takes a block only in its canonical form (resource_container_cluster.go cidrBlockConfig).
    for (const block of list(single(body.master_authorized_networks_config).cidr_blocks)) {
      const cidr = block?.cidr_block;
      if (cidr === undefined || isExpression(cidr)) continue;
      let canonical: string | undefined;
      try {
        canonical = formatCidr(parseCidr(String(cidr)));
      } catch (e) {
        canonical = undefined;
        v(`authorized network ${JSON.stringify(cidr)} is not a CIDR block the provider takes (${(e as Error).message})`, 'write the network\'s address and prefix, e.g. 203.0.113.0/24', 'master_authorized_networks_config.cidr_blocks.cidr_block');
      }
      if (canonical !== undefined && canonical !== cidr) v(`authorized network ${JSON.stringify(cidr)} is not in canonical form`, `write ${canonical}`, 'master_authorized_networks_config.cidr_blocks.cidr_block');
    }
    const location = body.location;
    if (location !== undefined && !isExpression(location) && !(typeof location === 'string' && (GKE_LIMITS.region.test(location) || GKE_LIMITS.zone.test(location)))) {
      v(`location ${JSON.stringify(location)} is not a Google Cloud region or zone, and GKE refuses it at apply`, 'write a region such as europe-north1 or a zone such as europe-north1-a', 'location');
    }
    if (body.remove_default_node_pool === true && body.initial_node_count !== undefined && !isExpression(body.initial_node_count) && integerProblem(body.initial_node_count, 1)) {
      v(`initial_node_count ${JSON.stringify(body.initial_node_count)} with remove_default_node_pool: GKE creates the default pool first, and it needs at least 1 node`, 'keep initial_node_count at 1', 'initial_node_count');
    }
    return out;
  }),
});

/** Labels as the kubelet applies them (`--node-labels`, src/platform/labels.ts) and GKE passes them on. */
function labelProblems(pool: TerraformBlock): Finding[] {
  const labels = single(pool.body.node_config).labels;
  if (labels === undefined || isExpression(labels) || labels === null || typeof labels !== 'object') return [];
  return Object.entries(labels as Record<string, unknown>).flatMap(([key, value]) => {
    if (isExpression(key) || isExpression(value)) return [];
    const why = nodeLabelProblem(key, value);
    return why ? [blockViolation(pool, why, 'drop or rename the label (the kubelet sets kubernetes.io/os and kubernetes.io/arch itself)', 'node_config.labels')] : [];
  });
}

/** Taints as the provider takes them (node_config.go `taint`: key, value, effect of three) and the API server (key and value as a label's). */
function taintProblems(pool: TerraformBlock): Finding[] {
  const effects = Object.values(GKE_TAINT_EFFECT);
  return list(single(pool.body.node_config).taint).flatMap((t) => {
    if ([t?.key, t?.value, t?.effect].some(isExpression)) return [];
    const why = typeof t?.key !== 'string' ? `a taint has the key ${JSON.stringify(t?.key)}`
      : labelKeyProblem(t.key)?.replace(/^label/, 'taint')
        ?? labelValueProblem(t.key, t.value ?? '')?.replace(/^label/, 'taint')
        ?? (effects.includes(t.effect) ? undefined : `taint ${t.key} has the effect ${JSON.stringify(t.effect)}`);
    return why ? [blockViolation(pool, why, `write taints as key, value and effect ${effects.join(', ')}`, 'node_config.taint')] : [];
  });
}

/**
 * A node pool as the provider and GKE take it: a pool name (the GKE API: 1 to 40 lower-case
 * letters, digits and `-`), an image type GKE still offers, agreeing with
 * `windows_node_config.osversion` (node_config.go: `OS_VERSION_LTSC2019`, `OS_VERSION_LTSC2022`;
 * a Linux image with a Windows release, or a Windows image with none, which leaves the release to
 * GKE while the pods' images must match it), a Compute Engine machine type (for Windows: x86 and
 * not shared-core), the boot disk (`disk_size_gb` `IntAtLeast(10)`, `disk_type` of the
 * persistent disk types, Hyperdisk on the series that take nothing else), autoscaling sizes (`min_node_count`, `max_node_count`: `IntAtLeast(0)`,
 * min <= max), a GKE version, and labels and taints the kubelet and the provider take.
 */
const gkeNodePools = rule<TerraformGraph>({
  name: 'gke-node-pool',
  scope: 'object',
  description: 'A GKE node pool has a name, an image type that agrees with windows_node_config.osversion, a machine type a node of its OS runs on, a boot disk, autoscaling sizes, labels and taints GKE and the kubelet take',
  source: 'hashicorp/terraform-provider-google v7.45.0 google/services/container/node_config.go and resource_container_node_pool.go; GKE docs concepts/node-images, concepts/windows-server-gke; kubelet --node-labels',
  check: (graph) => graph.ofType('google_container_node_pool').flatMap((pool) => {
    const out: Finding[] = [];
    const v = (what: string, fix: string, field: string) => out.push(blockViolation(pool, what, fix, field));
    const body = pool.body;
    const config = single(body.node_config);
    if (body.name !== undefined && !isExpression(body.name) && nameProblem(body.name, GKE_LIMITS.nodePoolName)) {
      v(`node pool name ${JSON.stringify(body.name)} is not a GKE node pool name`, `use 1 to ${GKE_LIMITS.nodePoolName.max} lower-case letters, digits and -, starting with a letter and ending with a letter or digit`, 'name');
    }
    const image = imageTypeOf(pool);
    const osversion = single(config.windows_node_config).osversion;
    const known = [...GKE_LINUX_IMAGE_TYPES, GKE_WINDOWS_IMAGE_TYPE] as unknown[];
    if (image === undefined || (!isExpression(image) && !known.includes(image))) {
      const retired = (GKE_RETIRED_IMAGE_TYPES as readonly unknown[]).includes(image);
      v(image === undefined ? 'the node pool names no image_type, so GKE picks its default (a Linux image)'
        : `image type ${JSON.stringify(image)} ${retired ? 'is retired: GKE no longer creates nodes of it' : 'is not a GKE node image type'}`,
      `use one of ${known.join(', ')}`, 'node_config.image_type');
    }
    if (osversion !== undefined && !isExpression(osversion) && osversion !== GKE_OS_VERSION_UNSPECIFIED && gkeWindowsVersionOf(osversion) === undefined) {
      v(`windows_node_config.osversion ${JSON.stringify(osversion)} is not one GKE offers (${Object.values(GKE_WINDOWS_OS_VERSIONS).join(', ')})`,
        'use WindowsVersion.SERVER_2019 or SERVER_2022; GKE has no Windows Server 2025', 'node_config.windows_node_config.osversion');
    } else if (image === GKE_WINDOWS_IMAGE_TYPE && (osversion === undefined || osversion === GKE_OS_VERSION_UNSPECIFIED)) {
      v(`the Windows pool leaves windows_node_config.osversion ${osversion === undefined ? 'unset' : GKE_OS_VERSION_UNSPECIFIED}, so GKE picks the Windows Server release, and process-isolated containers run only on the release their images were built for`,
        `name the release: ${Object.values(GKE_WINDOWS_OS_VERSIONS).join(' or ')}`, 'node_config.windows_node_config.osversion');
    } else if (typeof image === 'string' && image !== GKE_WINDOWS_IMAGE_TYPE && !isExpression(image) && gkeWindowsVersionOf(osversion) !== undefined) {
      v(`image type ${image} is a Linux image, and windows_node_config.osversion ${osversion} applies to ${GKE_WINDOWS_IMAGE_TYPE} only`,
        `use ${GKE_WINDOWS_IMAGE_TYPE} for a Windows pool, or drop windows_node_config`, 'node_config.image_type');
    }
    const windows = image === GKE_WINDOWS_IMAGE_TYPE;
    const release = gkeWindowsVersionOf(osversion);
    if (windows && release !== undefined && !windowsSupport(WindowsPlatform.GKE, release).supported) {
      v(`GKE does not offer ${release}`, 'use WindowsVersion.SERVER_2022', 'node_config.windows_node_config.osversion');
    }
    const machine = config.machine_type;
    if (machine !== undefined && !isExpression(machine)) {
      const p = gceMachineTypeProblem(machine);
      const w = p === undefined && windows ? gkeWindowsMachineTypeProblem(machine) : undefined;
      if (p) v(p, 'write a machine type such as n2-standard-4', 'node_config.machine_type');
      else if (w) v(w.what, w.fix, 'node_config.machine_type');
    } else if (machine === undefined && windows) {
      v('the Windows pool names no machine_type, so GKE picks e2-medium, a shared-core type', 'name a machine type such as n2-standard-4', 'node_config.machine_type');
    }
    const disk = config.disk_size_gb;
    if (disk !== undefined && !isExpression(disk)) {
      const p = integerProblem(disk, GKE_LIMITS.diskSizeGb.min, GKE_LIMITS.diskSizeGb.max);
      if (p) v(`boot disk size ${p}`, `use a whole number of GB, ${GKE_LIMITS.diskSizeGb.min} to ${GKE_LIMITS.diskSizeGb.max}`, 'node_config.disk_size_gb');
    }
    const diskType = config.disk_type;
    if (diskType !== undefined && !isExpression(diskType) && !(GKE_DISK_TYPES as readonly unknown[]).includes(diskType)) {
      v(`boot disk type ${JSON.stringify(diskType)} is not one of ${GKE_DISK_TYPES.join(', ')}`, 'use pd-balanced (the default) or pd-ssd', 'node_config.disk_type');
    } else if (typeof diskType === 'string' && diskType.startsWith('pd-') && typeof machine === 'string' && !isExpression(machine) && gceHyperdiskOnly(machine)) {
      v(`boot disk type ${diskType} on ${machine}: its series takes Hyperdisk only, and the nodes fail to create`, 'use hyperdisk-balanced (leave diskType unset for it), or another series such as n2', 'node_config.disk_type');
    }
    const scaling = single(body.autoscaling);
    const sizes = { min_node_count: scaling.min_node_count, max_node_count: scaling.max_node_count };
    let known2 = true;
    for (const [key, value] of Object.entries(sizes)) {
      if (value === undefined || isExpression(value)) {
        known2 = false;
        continue;
      }
      const p = integerProblem(value, 0);
      if (p) {
        known2 = false;
        v(`autoscaling.${key} ${p}`, 'use a whole number, 0 or more', `autoscaling.${key}`);
      }
    }
    if (known2 && sizes.min_node_count > sizes.max_node_count) {
      v(`autoscaling.min_node_count ${sizes.min_node_count} is above max_node_count ${sizes.max_node_count}`, 'keep the minimum at or below the maximum', 'autoscaling');
    }
    // "Cannot set both initial_node_count and node_count on node pool" (resource_container_node_pool.go expandNodePool).
    if (body.node_count !== undefined && body.node_count !== null && body.initial_node_count !== undefined && body.initial_node_count !== null) {
      v('the node pool sets both initial_node_count and node_count, which the provider refuses ("Cannot set both initial_node_count and node_count")',
        'to give a fixed node_count, also write addOverride(\'initial_node_count\', null) and drop the autoscaling block; or keep the autoscaling the pool writes', 'node_count');
    }
    if (body.version !== undefined && !isExpression(body.version)) {
      const p = gkeVersionProblem(body.version);
      if (p) v(p, 'leave version unset: the pool follows the cluster and its release channel', 'version');
    }
    out.push(...labelProblems(pool), ...taintProblems(pool));
    return out;
  }),
});

/** Two node pools of one name in one cluster: the second fails at apply (the name is the pool's id in the cluster). */
const nodePoolNames = rule<TerraformGraph>({
  name: 'gke-node-pool-names',
  scope: 'graph',
  description: 'No two node pools of one name in a GKE cluster',
  source: 'GKE API: the node pool name is its id in the cluster',
  check: (graph) => {
    return repeatedKeys(graph.ofType('google_container_node_pool'), (pool) => {
      const { cluster, name } = pool.body;
      return typeof name !== 'string' || isExpression(name) || typeof cluster !== 'string' ? undefined : `${pool.stack}|${clusterOf(graph, pool)?.id ?? cluster}|${name}`;
    }).map(([pool, first]) => blockViolation(pool, `node pool name "${pool.body.name}" is also the name of ${first.path ?? first.id} in the same cluster, and GKE takes one node pool per name`,
      'give each node pool its own poolName (the default is the construct id)', 'name'));
  },
});

/** True when some node of the pool can take kube-dns and the other system pods: Linux, at least one node, no NoSchedule/NoExecute taint. */
function runsSystemPods(pool: TerraformBlock): boolean {
  const image = imageTypeOf(pool);
  if (!(GKE_LINUX_IMAGE_TYPES as readonly unknown[]).includes(image)) return false;
  const scaling = single(pool.body.autoscaling);
  const nodes = Object.keys(scaling).length > 0 ? Math.max(Number(scaling.min_node_count ?? 0), Number(scaling.total_min_node_count ?? 0))
    : Number(pool.body.node_count ?? pool.body.initial_node_count ?? 0);
  const blocking = list(single(pool.body.node_config).taint).some((t) => t?.effect === 'NO_SCHEDULE' || t?.effect === 'NO_EXECUTE');
  return nodes >= 1 && !blocking;
}

/**
 * A cluster with Windows Server node pools (GKE docs how-to/creating-a-cluster-windows,
 * concepts/windows-server-gke): a Standard cluster (Windows Server node images are not available
 * in Autopilot), VPC-native networking (alias IPs; routes-based clusters cannot have Windows
 * pools: `networking_mode` `ROUTES`, or `cluster_ipv4_cidr` without a mode, since the provider
 * creates every other cluster VPC-native, resource_container_cluster.go v7.45.0), and a Linux pool with
 * a node that can run the system components (kube-dns, konnectivity, metrics-server run on Linux
 * only and tolerate no taint of the pool's), and a version from which GKE offers
 * `WINDOWS_LTSC_CONTAINERD` pools (GKE docs deprecations/windows-server-sac: 1.23).
 */
const windowsCluster = rule<TerraformGraph>({
  name: 'gke-windows-cluster',
  scope: 'graph',
  description: 'A GKE cluster with Windows Server node pools is a Standard, VPC-native cluster on GKE 1.23 or newer, with a Linux pool that can run kube-dns',
  source: 'GKE docs how-to/creating-a-cluster-windows, concepts/windows-server-gke, deprecations/windows-server-sac',
  check: (graph) => graph.ofType('google_container_cluster').flatMap((cluster) => {
    const pools = poolsOf(graph, cluster);
    const windows = pools.filter(isWindowsPool);
    if (windows.length === 0) return [];
    const names = windows.map((p) => p.body.name).join(', ');
    const out: Finding[] = [];
    const v = (what: string, fix: string, field?: string) => out.push(blockViolation(cluster, what, fix, field));
    if (cluster.body.enable_autopilot === true) {
      v(`Windows Server node pools (${names}) need a Standard cluster, and this one is Autopilot`, 'drop enable_autopilot (HybridGkeStack makes Standard clusters)', 'enable_autopilot');
    }
    // The provider creates a cluster VPC-native unless networking_mode is ROUTES, or it is unset and
    // cluster_ipv4_cidr is set (resource_container_cluster.go create: "Default to VPC_NATIVE mode during
    // initial creation"); an empty ip_allocation_policy {} is VPC-native (its Windows acceptance test writes one).
    const mode = cluster.body.networking_mode;
    const routesCidr = cluster.body.cluster_ipv4_cidr;
    if (mode === 'ROUTES' || ((mode === undefined || mode === '') && typeof routesCidr === 'string' && routesCidr !== '' && !isExpression(routesCidr))) {
      v(`Windows Server node pools (${names}) need VPC-native networking, and the cluster is routes-based (${mode === 'ROUTES' ? 'networking_mode ROUTES' : 'cluster_ipv4_cidr without networking_mode'})`,
        'keep networking_mode VPC_NATIVE with the ip_allocation_policy HybridGkeStack writes', 'networking_mode');
    }
    const version = cluster.body.min_master_version;
    const minor = gkeMinorOf(version);
    if (minor !== undefined && minor < GKE_WINDOWS_MINIMUM_MINOR) {
      v(`Windows Server node pools (${names}) of ${GKE_WINDOWS_IMAGE_TYPE} need GKE 1.${GKE_WINDOWS_MINIMUM_MINOR} or newer, and the cluster asks for ${version}`,
        `set kubernetesVersion to a version GKE offers, 1.${GKE_WINDOWS_MINIMUM_MINOR} or newer`, 'min_master_version');
    }
    if (!pools.some(runsSystemPods)) {
      v(`Windows Server node pools (${names}) need a Linux node for kube-dns and the other system components, and no Linux pool has at least one node without a NoSchedule or NoExecute taint`,
        'add a GkeLinuxNodePool with minNodesPerZone >= 1 and no such taint');
    }
    return out;
  }),
});

/** A stack of Google resources needs a `google` provider configuration with a project: Terraform would fall back to the environment's. */
const googleProvider = rule<TerraformGraph>({
  name: 'gke-provider',
  scope: 'graph',
  description: 'A stack of Google resources has a google provider configuration, whose project is a project id or number',
  source: 'Terraform: a resource without a configured provider uses an empty default configuration; Google Cloud Resource Manager docs "Creating and managing projects" (project ids)',
  check: (graph) => [...graph.stacks.keys()].flatMap((stack) => {
    const first = graph.blocks.find((b) => b.stack === stack && b.mode !== 'provider' && b.type.startsWith('google_'));
    const providers = graph.ofType('provider.google').filter((p) => p.stack === stack);
    if (first && providers.length === 0) {
      return [blockViolation(first, `stack "${stack}" has no google provider, and its Google resources need one`, 'use HybridGkeStack, or add a GoogleProvider with project and region')];
    }
    // The provider takes any string; the Google APIs refuse what is not a project id or number, at apply.
    return providers.filter((p) => typeof p.body.project === 'string' && !isExpression(p.body.project) && !GKE_LIMITS.project.test(p.body.project))
      .map((p) => blockViolation(p, `project ${JSON.stringify(p.body.project)} is not a Google Cloud project id, and the Google APIs refuse it at apply`,
        'use the project id (6 to 30 lower-case letters, digits and "-", starting with a letter, e.g. my-project-123456) or the project number', 'project'));
  }),
});

/**
 * Names of the network resources as the provider takes them: RFC 1035 of 1 to 63 characters for
 * networks, subnetworks and routers (`verify.ValidateGCEName`), of 2 to 63 for Cloud NATs
 * (resource_compute_router_nat.go `name`, `verify.ValidateRFC1035Name(2, 63)`). GkeNetwork names
 * them all after the cluster, so a 1-character cluster name would fail at plan on the NAT.
 */
const networkNames = rule<TerraformGraph>({
  name: 'gke-network-names',
  // At synth: at construction the cluster's name rule names clusterName first (HybridGkeStack checks the NAT's minimum).
  scope: 'graph',
  description: 'Network, subnetwork, router and Cloud NAT names the provider takes (a NAT name of 2 to 63 characters)',
  source: 'hashicorp/terraform-provider-google v7.45.0 google/services/compute/resource_compute_router_nat.go (name ValidateRFC1035Name(2, 63)), resource_compute_network.go, resource_compute_subnetwork.go, resource_compute_router.go (ValidateGCEName)',
  check: (graph) => (['google_compute_network', 'google_compute_subnetwork', 'google_compute_router', 'google_compute_router_nat'] as const).flatMap((type) => graph.ofType(type).flatMap((block) => {
    const name = block.body.name;
    if (name === undefined || isExpression(name)) return [];
    const min = type === 'google_compute_router_nat' ? GKE_LIMITS.natName.min : 1;
    const { max, pattern } = GKE_LIMITS.gceName;
    return typeof name === 'string' && name.length >= min && name.length <= max && pattern.test(name) ? []
      : [blockViolation(block, `${type} name ${JSON.stringify(name)} is not a name the provider takes (RFC 1035, ${min} to ${max} characters)`,
        `use ${min} to ${max} lower-case letters, digits and -, starting with a letter (HybridGkeStack names the network after clusterName: use 2 characters or more)`, 'name')];
  })),
});

/** Every GKE rule, in the order messages are reported. */
export const GKE_RULES: readonly TerraformRule[] = registry<TerraformRule>([gkeCluster, gkeNodePools, nodePoolNames, windowsCluster, networkNames, googleProvider]);
