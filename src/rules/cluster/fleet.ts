import { FLEET_LABELS, fleetLabels, isFleetLabel } from '../../platform/labels';
import { ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { pools } from './pools';

/**
 * The fleet labels of a CAPI Cluster (`FLEET_LABELS`) say what its pools run: Windows workers or
 * not, and each Windows pool's build (its MachineDeployments' `windows.cdk-hybrid-windows.io/build`).
 * A cluster selected by them gets the Windows add-ons of exactly its builds (a Sveltos
 * ClusterProfile, an ApplicationSet), so a stale label installs the wrong images or none. Judged
 * on Clusters that carry them (the cluster constructs always write them; YAML without them is
 * left alone).
 */
export const fleetLabelRule = rule<ManifestGraph>({
  name: 'fleet-labels',
  scope: 'graph',
  description: 'A Cluster\'s fleet labels (Windows workers, their builds) match its pools',
  source: 'k8s.io/apimachinery pkg/util/validation/validation.go (IsValidLabelValue); projectsveltos ClusterProfile spec.clusterSelector; Argo CD ApplicationSet cluster generator selector',
  check: (graph) => {
    const out: Finding[] = [];
    const all = pools(graph);
    for (const cluster of graph.ofKind('Cluster').filter((c) => String(c.manifest.apiVersion ?? '').startsWith('cluster.x-k8s.io/'))) {
      const labels: Record<string, unknown> = cluster.manifest.metadata?.labels ?? {};
      const written = Object.fromEntries(Object.entries(labels).filter(([k]) => isFleetLabel(k)));
      if (Object.keys(written).length === 0) continue;
      const windows = all.filter((p) => p.cluster === cluster && p.windows);
      const builds: string[] = [];
      for (const pool of windows) {
        const build = pool.md.manifest.metadata?.labels?.[FLEET_LABELS.poolBuild];
        if (typeof build === 'string' && build !== '') builds.push(build);
        else out.push(violation(pool.md, `Windows MachineDeployment without the ${FLEET_LABELS.poolBuild} label, so its Cluster's fleet labels cannot say its build`, `label it ${FLEET_LABELS.poolBuild}: <its node.kubernetes.io/windows-build, e.g. 10.0.20348>`, 'metadata.labels'));
      }
      const expected = fleetLabels(builds);
      const wrong = [...new Set([...Object.keys(expected), ...Object.keys(written)])].filter((k) => expected[k] !== written[k]).sort();
      if (wrong.length === 0) continue;
      const pools_ = windows.map((p) => `${p.md.manifest.metadata?.name}${p.md.manifest.metadata?.labels?.[FLEET_LABELS.poolBuild] ? ` (${p.md.manifest.metadata.labels[FLEET_LABELS.poolBuild]})` : ''}`);
      out.push(violation(cluster,
        `fleet labels ${wrong.map((k) => `${k}=${JSON.stringify(written[k] ?? null)}`).join(', ')} do not match the cluster's pools (${pools_.length > 0 ? `Windows: ${pools_.join(', ')}` : 'no Windows pool'}), so fleet tools selecting on them pick the wrong clusters`,
        `set the fleet labels to ${Object.entries(expected).map(([k, v]) => `${k}: "${v}"`).join(', ')} (and remove the others), or remove the patch that changed them`, 'metadata.labels'));
    }
    return out;
  },
});
