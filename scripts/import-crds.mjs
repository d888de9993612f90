// Generates the typed L1 bindings in src/generated/ from the pinned upstream CRDs.
// Only the served storage version (v1beta2; Karpenter's v1, CAPZ's v1beta1) is kept, and every schema `description` is
// stripped first, so no upstream prose enters the project. Also writes the CEL rules
// (`x-kubernetes-validations`) of the same kinds to src/generated/crd-cel-rules.ts, read with
// the library's own reader (so run it after `tsc -b`, as `npm run import` does).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

const crdDir = resolve(process.env.CRD_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'crds'));
const root = join(import.meta.dirname, '..');
const outDir = join(root, 'src', 'generated');
const cdk8sCli = join(root, 'node_modules', '.bin', 'cdk8s');
/** The version kept of every module's CRDs, unless `VERSIONS` names another. */
const VERSION = 'v1beta2';
/** Modules whose served storage version is not `VERSION`. */
const VERSIONS = { karpenter: 'v1', capz: 'v1beta1' };

/** Module name -> CRD files (relative to CRD_DIR) it is generated from. */
const MODULES = {
  'cluster-api': [
    'cluster-api/cluster.x-k8s.io_clusters.yaml',
    'cluster-api/cluster.x-k8s.io_machinedeployments.yaml',
    'cluster-api/cluster.x-k8s.io_machinehealthchecks.yaml',
    // Cluster API's kubeadm bootstrap and control plane, and its add-on sets (the CAPZ clusters).
    'cluster-api/bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.yaml',
    'cluster-api/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml',
    'cluster-api/addons.cluster.x-k8s.io_clusterresourcesets.yaml',
  ],
  k0smotron: [
    'k0smotron/controlplane.cluster.x-k8s.io_k0scontrolplanes.yaml',
    'k0smotron/bootstrap.cluster.x-k8s.io_k0sworkerconfigtemplates.yaml',
    // RemoteMachine provider (SSH): the objects of RemoteHybridCluster and the remote pools.
    'k0smotron/infrastructure.cluster.x-k8s.io_remoteclusters.yaml',
    'k0smotron/infrastructure.cluster.x-k8s.io_remotemachinetemplates.yaml',
    'k0smotron/infrastructure.cluster.x-k8s.io_pooledremotemachines.yaml',
    'k0smotron/infrastructure.cluster.x-k8s.io_remotemachines.yaml',
  ],
  capa: [
    'cluster-api-provider-aws/infrastructure.cluster.x-k8s.io_awsclusters.yaml',
    'cluster-api-provider-aws/infrastructure.cluster.x-k8s.io_awsmachinetemplates.yaml',
  ],
  // Cluster API Provider Azure v1.26.0: infrastructure.cluster.x-k8s.io/v1beta1 only (the v1beta1 contract).
  capz: [
    'cluster-api-provider-azure/infrastructure.cluster.x-k8s.io_azureclusters.yaml',
    'cluster-api-provider-azure/infrastructure.cluster.x-k8s.io_azureclusteridentities.yaml',
    'cluster-api-provider-azure/infrastructure.cluster.x-k8s.io_azuremachinetemplates.yaml',
  ],
  // Karpenter on EKS (KarpenterWindowsNodePool): karpenter.sh/v1 NodePool, karpenter.k8s.aws/v1 EC2NodeClass.
  karpenter: [
    'karpenter/karpenter.sh_nodepools.yaml',
    'karpenter/karpenter.k8s.aws_ec2nodeclasses.yaml',
  ],
};

/** Removes the `description` keyword from a schema and every sub-schema (not from property names). */
function stripDescriptions(schema) {
  if (schema === null || typeof schema !== 'object') return;
  delete schema.description;
  for (const sub of Object.values(schema.properties ?? {})) stripDescriptions(sub);
  for (const key of ['items', 'additionalProperties', 'not']) stripDescriptions(schema[key]);
  for (const key of ['allOf', 'anyOf', 'oneOf']) (schema[key] ?? []).forEach(stripDescriptions);
}

/**
 * Subtrees the library never writes and whose bindings would cost every user of the package at
 * load time: RemoteMachine's `provisionJob` embeds a whole batch/v1 Job spec (about 800 KB of
 * JavaScript, 250 ms of CPU and 14 MiB per process). The library refuses the provision Job on
 * Windows and never sets it; the field stays in the binding, typed as an open object.
 */
const OPAQUE = { provisionJob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

/** Replaces the `OPAQUE` properties, wherever they stand, by their open schemas. */
function makeOpaque(schema) {
  if (schema === null || typeof schema !== 'object') return;
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    if (OPAQUE[name]) schema.properties[name] = structuredClone(OPAQUE[name]);
    else makeOpaque(sub);
  }
  for (const key of ['items', 'additionalProperties']) makeOpaque(schema[key]);
}

const { celRulesOf } = createRequire(import.meta.url)(join(root, 'lib', 'src', 'rules', 'cluster', 'crd-cel.js'));
/** `group/version/Kind` -> that version's CEL rules, for every kind generated below. */
const celRules = {};

const work = mkdtempSync(join(tmpdir(), 'crd-import-'));
try {
  for (const [module, files] of Object.entries(MODULES)) {
    const wanted = VERSIONS[module] ?? VERSION;
    const docs = files.map((file) => {
      const [crd] = parseAllDocuments(readFileSync(join(crdDir, file), 'utf8')).map((d) => d.toJS());
      const version = crd.spec.versions.find((v) => v.name === wanted && v.served && v.storage);
      if (!version) throw new Error(`${file}: no served storage version ${wanted}`);
      celRules[`${crd.spec.group}/${wanted}/${crd.spec.names.kind}`] = celRulesOf(version.schema.openAPIV3Schema);
      stripDescriptions(version.schema.openAPIV3Schema);
      makeOpaque(version.schema.openAPIV3Schema);
      return stringify({
        apiVersion: crd.apiVersion,
        kind: crd.kind,
        metadata: { name: crd.metadata.name },
        spec: { group: crd.spec.group, names: crd.spec.names, scope: crd.spec.scope, versions: [version] },
      });
    });
    const input = join(work, `${module}.yaml`);
    writeFileSync(input, docs.join('---\n'));
    execFileSync(cdk8sCli, ['import', `${module}:=${input}`, '--language', 'typescript',
      '--output', outDir, '--no-save', '--no-check-upgrade'], { stdio: 'inherit', cwd: work });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

writeFileSync(join(outDir, 'crd-cel-rules.ts'), `// Generated by \`npm run import\` (scripts/import-crds.mjs) from the pinned CRDs: do not edit.

/** One \`x-kubernetes-validations\` rule of a CRD version's schema (read by src/rules/crd-cel.ts). */
export interface CrdCelRule {
  /** Where the rule sits: a dotted field path, \`[]\` for each list item, \`{}\` for each map value ('' for the object). */
  readonly path: string;
  /** The CEL expression. */
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  /**
   * The rule reads \`oldSelf\`: it compares an update with the stored object, which a synth does not
   * have, so it is not judged at synth (the API server judges it on update).
   */
  readonly transition: boolean;
  /** Integer fields under the node (relative paths, '' for the node): CEL ints, where JSON has doubles. */
  readonly integers?: readonly string[];
  /** Defaults of the node's own fields, which the API server fills in before it evaluates. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** The only fields of \`self\` the rule reads, when it reads \`self\` through field selections alone. */
  readonly reads?: readonly string[];
  /** The rule's result when none of \`reads\` is set, computed here with the same engine. */
  readonly whenAbsent?: boolean;
}

/** \`group/version/Kind\` -> its CEL rules (an empty list: the kind has none). */
export const CRD_CEL_RULES: Readonly<Record<string, readonly CrdCelRule[]>> = ${JSON.stringify(celRules, null, 2)};
`);
