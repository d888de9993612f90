import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';

/** A synthesized Kubernetes object, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; [k: string]: any }; [k: string]: any };

/**
 * Synthesizes an app the way `cdk8s synth` does, construct validations included (cdk8s
 * `Testing.synth` skips them), and returns every object without writing files.
 */
export function synthObjects(app: App): K8sObject[] {
  return parseAllDocuments(app.synthYaml()).map((d) => d.toJS()).filter((o) => o !== null);
}

/** The one object of a kind (and name, when given); fails the test when there is not exactly one. */
export function only(objects: K8sObject[], kind: string, name?: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) {
    throw new Error(`expected one ${kind}${name ? `/${name}` : ''}, found ${found.length}: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  }
  return found[0];
}
