import { K8S_SCHEMAS } from '../../src/generated/k8s-schemas';

/**
 * Whether this build has the core Kubernetes schemas: `npm run import` generates them only from a
 * Kubernetes OpenAPI source (K8S_SCHEMAS, KUBERNETES_MODELS), and none is shipped yet. Without them
 * the schema check passes core objects unchecked, so the cases that judge core objects skip, as the
 * CRD cases skip without ../shared/crds.
 */
export const CORE_SCHEMAS = Object.keys((JSON.parse(K8S_SCHEMAS) as { versions: object }).versions).length > 0;

/** `test` when the core schemas are generated, otherwise a skipped one. */
export const testWithCore = CORE_SCHEMAS ? test : test.skip;
