import { ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { judged, Pool, pools } from './pools';

/**
 * MachineDeployments whose bootstrap or machines no rule judges. Silence would read as "valid":
 * a Windows pool is where the pitfalls are (an OS type left to its Linux default, kubelet flags a
 * Windows service drops, Linux-only bootstrap fields), so one the rules cannot judge is refused;
 * a Linux one gets advice.
 */
export const unjudgedPools = rule<ManifestGraph>({
  name: 'unjudged-pool',
  scope: 'object',
  description: 'A MachineDeployment whose bootstrap or machine template no rule judges: an error when it runs Windows, advice otherwise',
  source: 'cluster-api v1.14 api/core/v1beta2 MachineSpec (bootstrap.configRef, infrastructureRef)',
  check: (graph) => pools(graph).filter((p) => p.windows && !judged(p)).map((p) => finding(p)),
  advise: (graph) => pools(graph).filter((p) => !p.windows && !judged(p)).map((p) => finding(p)),
});

function finding(pool: Pool): Finding {
  const template = pool.md.manifest.spec?.template?.spec ?? {};
  const bootstrap = template.bootstrap?.configRef?.kind ?? (template.bootstrap?.dataSecretName ? 'bootstrap data secret' : 'no bootstrap');
  const machines = template.infrastructureRef?.kind ?? 'no machine template';
  const what = pool.windows
    ? `the pool runs Windows (${pool.windowsEvidence}), and no rule judges a ${bootstrap} pool on ${machines}, so its Windows pitfalls (OS type, image, kubelet flags, bootstrap fields Windows ignores) would pass unchecked`
    : `no rule judges a ${bootstrap} pool on ${machines}: only the MachineDeployment's own fields are checked`;
  return violation(pool.md, what,
    'check the pool by hand, then suppress this finding in metadata.annotations with ignore-rule.cdk-hybrid-windows.io/unjudged-pool: "<what you checked>"', 'spec.template.spec');
}
