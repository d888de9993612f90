import { K0SMOTRON_REFUSED_CONTROL_PLANE_VERSIONS, K0sVersion } from '../../platform/k0s-version';
import { isCapi, list, ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/**
 * k0smotron v2.1.0's own admission webhooks, transcribed so that what they refuse is found at
 * synth instead of at `kubectl apply`:
 *
 * - K0sControlPlane (api/controlplane/v1beta2/k0s_controlplane_webhook.go, validateK0sControlPlane):
 *   `denyIncompatibleK0sVersions` and `denyRecreateOnSingleClusters` here; `denyIncompatibleProvisioners`
 *   is the `control-plane` rule's. Its update check (no upgrade of more than one minor at a time)
 *   needs the object as applied before, which synth does not know.
 * - K0sWorkerConfig (api/bootstrap/v1beta2/k0s_types.go, K0sWorkerConfigSpec.Validate, called by
 *   worker_bootstrap_webhook.go): CAPI makes each machine's K0sWorkerConfig from the
 *   K0sWorkerConfigTemplate's `spec.template.spec`, so the template is judged by it:
 *   `validateVersion`, `validateWindows` (its minimum version is the `windows-pool` rule's) and
 *   `validateFiles`.
 */
export const k0smotronWebhooks = rule<ManifestGraph>({
  name: 'k0smotron-webhooks',
  scope: 'object',
  description: 'What k0smotron\'s K0sControlPlane and K0sWorkerConfig webhooks refuse (versions, Recreate with --single, files)',
  source: 'k0smotron v2.1.0 api/controlplane/v1beta2/k0s_controlplane_webhook.go; api/bootstrap/v1beta2/k0s_types.go',
  check: (graph) => {
    const out: Finding[] = [];
    for (const kcp of graph.ofKind('K0sControlPlane').filter((k) => isCapi(k, 'controlplane.cluster.x-k8s.io'))) {
      const spec = kcp.manifest.spec ?? {};
      const version = K0sVersion.parse(spec.version);
      const instead = version ? K0SMOTRON_REFUSED_CONTROL_PLANE_VERSIONS[version.core] : undefined;
      if (instead) {
        out.push(violation(kcp, `k0s ${spec.version} is refused by k0smotron's K0sControlPlane webhook (denyIncompatibleK0sVersions)`, `use ${instead}`, 'spec.version'));
      }
      if (spec.updateStrategy === 'Recreate' && list(spec.k0sConfigSpec?.args).includes('--single')) {
        out.push(violation(kcp, 'updateStrategy Recreate with the controller argument --single is refused by k0smotron\'s webhook (denyRecreateOnSingleClusters): a single-node controller has no second machine to hand over to',
          'drop --single, or use updateStrategy InPlace', 'spec.updateStrategy', 'set spec.updateStrategy: InPlace, or remove --single from spec.k0sConfigSpec.args'));
      }
    }
    for (const template of graph.ofKind('K0sWorkerConfigTemplate').filter((t) => isCapi(t, 'bootstrap.cluster.x-k8s.io'))) {
      const spec = template.manifest.spec?.template?.spec ?? {};
      const v = (what: string, fix: string, field: string) => out.push(violation(template, `${what}, which k0smotron's K0sWorkerConfig webhook refuses for every machine`, fix, field));
      const field = 'spec.template.spec.version';
      if (typeof spec.version === 'string' && spec.version.includes('-k0s.')) {
        v(`version ${spec.version} has a "-k0s." suffix`, `write it with "+k0s.", e.g. ${spec.version.replace('-k0s.', '+k0s.')}`, field);
      } else if (spec.provisioner?.platform === 'windows' && !K0sVersion.parse(spec.version)) {
      // validateWindows also refuses versions below K0SMOTRON_WINDOWS_MINIMUM: the windows-pool rule's.
        v(`the Windows worker version ${JSON.stringify(spec.version)} is not a k0s version (validateWindows: "invalid version format")`, K0sVersion.FIX, field);
      }
      const paths = new Set<unknown>();
      list(spec.files).forEach((file, i) => {
        const at = `spec.template.spec.files[${i}]`;
        const from = file?.contentFrom;
        if (file?.content && from) v(`files[${i}] has both content and contentFrom`, 'keep one of them', at);
        if (!file?.content && !from) v(`files[${i}] has neither content nor contentFrom`, 'give the file content', at);
        if (from?.secretRef && from?.configMapRef) v(`files[${i}].contentFrom names both a Secret and a ConfigMap`, 'keep one of them', `${at}.contentFrom`);
        for (const ref of ['secretRef', 'configMapRef'] as const) {
          if (from?.[ref] && !from[ref].name) v(`files[${i}].contentFrom.${ref} has no name`, 'name the object', `${at}.contentFrom.${ref}.name`);
        }
        if (paths.has(file?.path)) v(`files[${i}].path ${JSON.stringify(file?.path)} is written by an earlier file too`, 'give each file its own path', `${at}.path`);
        paths.add(file?.path);
      });
    }
    return out;
  },
});
