// Generates the typed L1 bindings in src/generated/ from the pinned upstream CRDs.
// Only the served storage version (v1beta2) is kept, and every schema `description` is
// stripped first, so no upstream prose enters the project.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

const crdDir = resolve(process.env.CRD_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'crds'));
const root = join(import.meta.dirname, '..');
const outDir = join(root, 'src', 'generated');
const cdk8sCli = join(root, 'node_modules', '.bin', 'cdk8s');
const VERSION = 'v1beta2';

/** Module name -> CRD files (relative to CRD_DIR) it is generated from. */
const MODULES = {
  'cluster-api': [
    'cluster-api/cluster.x-k8s.io_clusters.yaml',
    'cluster-api/cluster.x-k8s.io_machinedeployments.yaml',
    'cluster-api/cluster.x-k8s.io_machinehealthchecks.yaml',
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
};

/** Removes the `description` keyword from a schema and every sub-schema (not from property names). */
function stripDescriptions(schema) {
  if (schema === null || typeof schema !== 'object') return;
  delete schema.description;
  for (const sub of Object.values(schema.properties ?? {})) stripDescriptions(sub);
  for (const key of ['items', 'additionalProperties', 'not']) stripDescriptions(schema[key]);
  for (const key of ['allOf', 'anyOf', 'oneOf']) (schema[key] ?? []).forEach(stripDescriptions);
}

const work = mkdtempSync(join(tmpdir(), 'crd-import-'));
try {
  for (const [module, files] of Object.entries(MODULES)) {
    const docs = files.map((file) => {
      const [crd] = parseAllDocuments(readFileSync(join(crdDir, file), 'utf8')).map((d) => d.toJS());
      const version = crd.spec.versions.find((v) => v.name === VERSION && v.served && v.storage);
      if (!version) throw new Error(`${file}: no served storage version ${VERSION}`);
      stripDescriptions(version.schema.openAPIV3Schema);
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
