import { isDeepStrictEqual } from 'node:util';
import type { K0smotronInfrastructure } from '../../platform/infrastructures';

/**
 * The k0smotron infrastructures one run of the rules knows, by the kinds they write: those the run
 * was given (`ManifestGraphContext.infrastructures`, the built-in ones by default) and those the
 * objects carry (`ManifestSource.infrastructure`, set by the construct that built them). A value
 * made per graph, never a process-wide registry: the same objects get the same answer whatever the
 * process built before (kube-linter's check registry is a value handed to the runner the same way,
 * stackrox/kube-linter pkg/command/lint/command.go).
 */
export class Infrastructures {
  private readonly byTemplateKind = new Map<string, K0smotronInfrastructure>();
  private readonly byClusterKind = new Map<string, K0smotronInfrastructure>();

  /**
   * Indexes the declarations; one declared twice (or an equal copy, as a module loaded twice gives)
   * counts once, and two different ones for one kind are refused, since the rules could not tell
   * their objects apart.
   */
  public constructor(declarations: Iterable<K0smotronInfrastructure>) {
    for (const infrastructure of declarations) {
      for (const [map, kind] of [[this.byTemplateKind, infrastructure.machineTemplateKind], [this.byClusterKind, infrastructure.clusterKind]] as const) {
        const known = map.get(kind);
        if (known && known !== infrastructure && !isDeepStrictEqual(known, infrastructure)) {
          throw new Error(`${kind} is the kind of two infrastructures, "${known.name}" and "${infrastructure.name}": give each its own kinds, or pass one of them`);
        }
        map.set(kind, infrastructure);
      }
    }
  }

  /** The infrastructure whose machine template is of `kind`, if one is known. */
  public ofTemplate(kind: unknown): K0smotronInfrastructure | undefined {
    return typeof kind === 'string' ? this.byTemplateKind.get(kind) : undefined;
  }

  /** The infrastructure whose cluster object is of `kind`, if one is known. */
  public ofCluster(kind: unknown): K0smotronInfrastructure | undefined {
    return typeof kind === 'string' ? this.byClusterKind.get(kind) : undefined;
  }
}
