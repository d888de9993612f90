import { formatViolation, podTemplatesOf, validateManifests } from '../../src';
import { CRDS_AVAILABLE, crdViolations } from './crd-schemas';
import { K8sObject } from './synth';

/** Built-in API groups: the API server serves them without a CRD. */
const BUILT_IN_GROUP = /^(v1|(apps|batch|policy|autoscaling|node\.k8s\.io|rbac\.authorization\.k8s\.io|networking\.k8s\.io|storage\.k8s\.io|scheduling\.k8s\.io|apiextensions\.k8s\.io|admissionregistration\.k8s\.io)\/.+)$/;
/**
 * Groups whose CRDs are not pinned in ../shared/crds: cert-manager's (the gMSA webhook's
 * certificates) and windows-gmsa's GMSACredentialSpec, which test/workloads/gmsa-webhook.test.ts
 * checks against the CRD GmsaWebhook itself writes.
 */
const UNPINNED_GROUP = /^(cert-manager\.io|windows\.k8s\.io)\//;

/**
 * Where images the examples and docs use write at run time. cdk8s-plus mounts a container's root
 * read-only by default (cdk8s-plus-28 lib/container.js, `readOnlyRootFilesystem ?? true`), so
 * each of these paths needs a writable volume, or the container crash-loops.
 */
const IMAGE_WRITES: ReadonlyArray<{ readonly image: RegExp; readonly paths: readonly string[]; readonly source: string }> = [{
  image: /(^|\/)nginx-unprivileged([:@]|$)/,
  paths: ['/tmp'],
  // The image moves the pid file and every *_temp_path to /tmp (sed over nginx.conf), and its
  // README says so ("The default NGINX PID has been moved from /var/run/nginx.pid to /tmp/nginx.pid").
  source: 'nginxinc/docker-nginx-unprivileged 1.27.3 mainline/alpine-slim/Dockerfile: pid /tmp/nginx.pid, client_body/proxy/fastcgi/uwsgi/scgi temp paths under /tmp',
}];

/** Containers with a read-only root whose image writes to a path no writable volume is mounted at. */
export function readOnlyRootWrites(objects: readonly K8sObject[]): string[] {
  return objects.flatMap((o) => podTemplatesOf(o).flatMap(({ spec }) => ['initContainers', 'containers'].flatMap((field) =>
    ((spec[field] ?? []) as K8sObject['spec'][]).flatMap((c) => {
      if (c.securityContext?.readOnlyRootFilesystem !== true) return [];
      const writable = new Set(((c.volumeMounts ?? []) as Array<{ mountPath: string; readOnly?: boolean }>).filter((m) => m.readOnly !== true).map((m) => m.mountPath));
      return IMAGE_WRITES.filter((w) => w.image.test(String(c.image))).flatMap((w) => w.paths.filter((p) => !writable.has(p)).map((p) =>
        `${o.kind}/${o.metadata.name} ${field} ${c.name}: image ${c.image} writes to ${p} (${w.source}), and the root is read-only with no writable volume there`));
    }))));
}

/**
 * What every example app's objects, and every docs snippet's, must pass beyond the synth-time
 * checks: the library's rules over the YAML as written (`validateManifests`, what the cdk8s
 * validation plugin runs), the pinned CRDs' schemas and CEL rules for custom kinds (when the CRDs
 * are at hand), and writable paths under a read-only root.
 */
export function exampleProblems(objects: readonly K8sObject[]): string[] {
  return [
    ...validateManifests(objects).map(formatViolation),
    ...(CRDS_AVAILABLE ? objects.filter((o) => !BUILT_IN_GROUP.test(o.apiVersion) && !UNPINNED_GROUP.test(o.apiVersion)).flatMap((o) => crdViolations(o)) : []),
    ...readOnlyRootWrites(objects),
  ];
}
