import { AWS_INFRASTRUCTURE, K0smotronInfrastructure, REMOTE_INFRASTRUCTURE } from '../../platform/infrastructures';

/**
 * The k0smotron infrastructures the rules know, by the kinds they write. A new infrastructure
 * registers its declaration (its pools do, when built), and every rule then judges its objects.
 */
const byTemplateKind = new Map<string, K0smotronInfrastructure>();
const byClusterKind = new Map<string, K0smotronInfrastructure>();

/**
 * Makes an infrastructure known to the rules. Registering the same declaration again does
 * nothing; another one for kinds already taken is refused, since the rules could not tell them apart.
 * @internal
 */
export function registerInfrastructure(infrastructure: K0smotronInfrastructure): void {
  for (const [map, kind] of [[byTemplateKind, infrastructure.machineTemplateKind], [byClusterKind, infrastructure.clusterKind]] as const) {
    const known = map.get(kind);
    if (known && known !== infrastructure) throw new Error(`${kind} is already the kind of the ${known.name} infrastructure: give the new one kinds of its own`);
  }
  byTemplateKind.set(infrastructure.machineTemplateKind, infrastructure);
  byClusterKind.set(infrastructure.clusterKind, infrastructure);
}

registerInfrastructure(AWS_INFRASTRUCTURE);
registerInfrastructure(REMOTE_INFRASTRUCTURE);

/** The infrastructure whose machine template is of `kind`, if one is known. */
export function infrastructureOfTemplate(kind: unknown): K0smotronInfrastructure | undefined {
  return typeof kind === 'string' ? byTemplateKind.get(kind) : undefined;
}

/** The infrastructure whose cluster object is of `kind`, if one is known. */
export function infrastructureOfCluster(kind: unknown): K0smotronInfrastructure | undefined {
  return typeof kind === 'string' ? byClusterKind.get(kind) : undefined;
}
