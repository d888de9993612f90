import { Manifest, ManifestGraph, ManifestRule, WindowsPlatform, adviseManifests, judgeManifests, validateManifests } from '../../src';

/** `judgeManifests`: the violations and the advice of `validateManifests` and `adviseManifests`, from one pass. */
describe('judgeManifests', () => {
  const deployment = (name: string, spec: object): Manifest => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }], ...spec } } },
  });
  const objects = [
    // A violation (a Windows pod that selects no Windows node) and advice (no spec.os.name, no requests).
    deployment('web', { tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], nodeSelector: {} }),
    deployment('api', { nodeSelector: { 'kubernetes.io/os': 'windows' }, hostNetwork: true, imagePullPolicy: 'Sometimes' }),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad name' }, data: { a: 'b' } },
  ];
  const options = { platform: WindowsPlatform.K0SMOTRON_AWS };

  test('finds what validateManifests and adviseManifests find, in their order', () => {
    const both = judgeManifests(objects, options);
    expect(both.violations.length).toBeGreaterThan(0);
    expect(both.advice.length).toBeGreaterThan(0);
    expect(both.violations).toEqual(validateManifests(objects, options));
    expect(both.advice).toEqual(adviseManifests(objects, options));
  });

  test('gives a rule one graph for its check and its advice, so work kept per graph is done once', () => {
    const graphs: ManifestGraph[] = [];
    const counting: ManifestRule = {
      name: 'counting', scope: 'graph', description: 'records its graphs', source: 'this test',
      check: (graph) => {
        graphs.push(graph);
        return [];
      },
      advise: (graph) => {
        graphs.push(graph);
        return [];
      },
    };
    judgeManifests(objects, { rules: [counting] });
    expect(graphs).toHaveLength(2);
    expect(graphs[0]).toBe(graphs[1]);
  });
});
