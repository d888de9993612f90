import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';

/** A generated binding class: its kind and its props-to-JSON mapping. */
export interface GeneratedKind<P> {
  manifest(props: P): { apiVersion: string; kind: string; metadata?: Record<string, unknown> };
}

/**
 * An API object of a generated kind, typed by its props but holding the final JSON field names.
 * Instances of the generated classes keep TypeScript names (`k0SConfigSpec`, `preserveClientIp`)
 * until they serialize, so a JSON patch written against the manifest fails or is silently
 * dropped; on these objects a patch sees exactly what `kubectl apply` will.
 */
export function typedApiObject<P>(scope: Construct, id: string, kind: GeneratedKind<P>, props: P): ApiObject {
  const { apiVersion, kind: kindName, metadata, ...rest } = kind.manifest(props);
  return new ApiObject(scope, id, { apiVersion, kind: kindName, metadata, ...rest });
}
