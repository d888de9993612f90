import { containerProblems, objectMetaProblems } from '../../platform/object-meta';
import { eachItem, Json, ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { manifestPath, podTemplatesOf } from '../pods/pod-template';

/**
 * What the API server refuses in any object, whatever its OS: names, namespaces, labels and
 * annotations (`objectMetaProblems`), and pod templates' labels, annotations, container names and
 * images (`containerProblems`). Items of a `v1 List` count too. The fix names the field, for YAML
 * users as for the constructs' props.
 */
export const OBJECT_META_RULE = rule<ManifestGraph>({
  name: 'object-meta',
  scope: 'object',
  description: 'Names, namespaces, labels, annotations, container names and images the API server refuses on any OS',
  source: 'kubernetes/apimachinery v0.34.0 pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor), pkg/util/validation/validation.go',
  check: (graph) => graph.sources.flatMap((source) => {
    const out: Finding[] = [];
    const report = (field: string, what: string) => out.push(violation(source, what,
      `change ${field} to what the API server takes (it would refuse the object at kubectl apply)`, field));
    const meta = (item: Json, prefix: string) => {
      if (item === null || typeof item !== 'object') return;
      for (const p of objectMetaProblems(item)) report(`${prefix}${p.field}`, p.what);
    };
    eachItem(source.manifest, meta);
    for (const location of podTemplatesOf(source.manifest)) {
      // The template's own metadata beside its spec (`spec.template.metadata`), not a Pod's.
      if (location.dotted.endsWith('.template.spec')) {
        const templatePath = location.dotted.slice(0, -'.spec'.length);
        for (const p of objectMetaProblems({ metadata: location.holder?.metadata })) {
          if (p.field === 'metadata.labels' || p.field === 'metadata.annotations') report(`${templatePath}.${p.field}`, p.what);
        }
      }
      for (const p of containerProblems(location.spec)) report(manifestPath(location, p.field), p.what);
    }
    return out;
  }),
});
