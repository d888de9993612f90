import { validateManifests, WindowsPlatform } from '../../src';

/**
 * A kind is a string from anywhere: one named like an Object.prototype member must not be looked up
 * as that member (the pod rules once iterated `toString` as a pod spec location, and object-meta
 * called it as the kind's name check).
 */
describe('objects whose kind names an Object.prototype member', () => {
  test.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])('%s: only the schema check speaks (no such kind)', (kind) => {
    const object = {
      apiVersion: 'v1', kind, metadata: { name: 'x' },
      spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
    };
    expect(validateManifests([object], { platform: WindowsPlatform.K0SMOTRON_AWS }).map((v) => `${v.rule}: ${v.what}`))
      .toEqual([`schema: Kubernetes 1.35 serves no ${kind} in v1 (no matches for kind "${kind}" in version "v1")`]);
  });
});
