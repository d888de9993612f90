import { App, Chart } from 'cdk8s';
import { parse } from 'yaml';
import { WindowsVersion, validateManifests } from '../../src';
import { HybridChart, KUBE_URL_FQDN, WindowsFluentBit, validatePodSpec } from '../../src/workloads';
import { K8sObject, only, synthObjects } from '../support/synth';

function fluentBit(props: Partial<ConstructorParameters<typeof WindowsFluentBit>[2]> = {}): K8sObject[] {
  const app = new App();
  new WindowsFluentBit(new HybridChart(app, 'logging', { namespace: 'logging' }), 'fluent-bit', { versions: [WindowsVersion.SERVER_2022], namespace: 'logging', ...props });
  return synthObjects(app);
}

describe('WindowsFluentBit (issue 27.3)', () => {
  const objects = fluentBit({ versions: [WindowsVersion.SERVER_2022, WindowsVersion.SERVER_2025] });
  const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');
  const config = parse(only(objects, 'ConfigMap').data['fluent-bit.yaml']);

  test('one DaemonSet per Windows build, each with that build\'s image and selector, that the API server accepts', () => {
    expect(daemonSets.map((d) => [d.spec.template.spec.nodeSelector['node.kubernetes.io/windows-build'], d.spec.template.spec.containers[0].image]))
      .toEqual([['10.0.20348', 'fluent/fluent-bit:windows-2022-5.1.3'], ['10.0.26100', 'fluent/fluent-bit:windows-2025-5.1.3']]);
    for (const d of daemonSets) {
      const pod = d.spec.template.spec;
      expect(validatePodSpec(pod)).toEqual([]);
      expect(pod.os.name).toBe('windows');
      expect(pod.tolerations).toContainEqual({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
      // Server Core images in process isolation: no HostProcess, no host network.
      expect(pod.securityContext?.windowsOptions?.hostProcess).toBeUndefined();
      expect(pod.hostNetwork).not.toBe(true);
      expect(pod.automountServiceAccountToken).toBe(true);
      expect(pod.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } });
    }
    expect(validateManifests(objects)).toEqual([]);
  });

  test('it reads the containerd logs under C:\\var\\log from the host, read-only, and keeps its positions on the host', () => {
    const pod = daemonSets[0].spec.template.spec;
    const volumes = Object.fromEntries(pod.volumes.map((v: K8sObject) => [v.name, v]));
    const mounts = Object.fromEntries(pod.containers[0].volumeMounts.map((m: K8sObject) => [m.mountPath, m]));
    expect(volumes[mounts['C:\\var\\log'].name].hostPath.path).toBe('C:\\var\\log');
    expect(mounts['C:\\var\\log'].readOnly).toBe(true);
    expect(config.pipeline.inputs[0].path).toBe('C:\\var\\log\\containers\\*.log');
    expect(config.pipeline.inputs[0]['multiline.parser']).toBe('cri');
    expect(config.pipeline.inputs[0].db.startsWith(mounts['C:\\var\\lib\\fluent-bit'].mountPath)).toBe(true);
    expect(volumes[mounts['C:\\var\\lib\\fluent-bit'].name].hostPath).toEqual({ path: 'C:\\var\\lib\\fluent-bit', type: 'DirectoryOrCreate' });
    expect(pod.containers[0].command).toEqual(['C:\\fluent-bit\\bin\\fluent-bit.exe', '-c', `${mounts['C:\\fluent-bit\\config'].mountPath}\\fluent-bit.yaml`]);
  });

  test('the Kubernetes filter calls the API server by its full name and finds the pod from the log file\'s name', () => {
    const [filter] = config.pipeline.filters;
    expect(filter.kube_url).toBe(KUBE_URL_FQDN);
    // The kubelet's symlink name (kuberuntime legacyLogSymlink: <pod>_<namespace>_<container>-<id>.log),
    // through the tail's tag_regex and tag, then the filter's prefix and regex_parser.
    const id = 'a'.repeat(64);
    const file = `C:\\var\\log\\containers\\iis-7d9c4b-x2x_shop_iis-${id}.log`;
    const groups = new RegExp(config.pipeline.inputs[0].tag_regex).exec(file)!.groups!;
    const tag = config.pipeline.inputs[0].tag.replace(/<(\w+)>/g, (_: string, k: string) => groups[k]);
    expect(tag).toBe(`kube.shop.iis-7d9c4b-x2x.iis.${id}`);
    const parser = config.parsers.find((p: K8sObject) => p.name === filter.regex_parser);
    expect(new RegExp(parser.regex).exec(tag.slice(filter.kube_tag_prefix.length))!.groups).toMatchObject({ namespace_name: 'shop', pod_name: 'iis-7d9c4b-x2x', container_name: 'iis', docker_id: id });
    expect(fluentBit({ kubeUrl: 'https://10.96.0.1:443' }).find((o) => o.kind === 'ConfigMap')!.data['fluent-bit.yaml']).toContain('kube_url: https://10.96.0.1:443');
  });

  test('its service account may read pods and namespaces', () => {
    expect(only(objects, 'ClusterRole').rules).toEqual([{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }]);
    expect(only(objects, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: only(objects, 'ServiceAccount').metadata.name, namespace: 'logging' }]);
    for (const d of daemonSets) expect(d.spec.template.spec.serviceAccountName).toBe(only(objects, 'ServiceAccount').metadata.name);
  });

  test('outputs and images are props; Windows Server 2019 needs an image of your own', () => {
    const out = parse(only(fluentBit({ outputs: [{ name: 'cloudwatch_logs', match: 'kube.*', region: 'eu-north-1' }] }), 'ConfigMap').data['fluent-bit.yaml']);
    expect(out.pipeline.outputs).toEqual([{ name: 'cloudwatch_logs', match: 'kube.*', region: 'eu-north-1' }]);
    expect(config.pipeline.outputs).toEqual([{ name: 'stdout', match: '*' }]);
    expect(() => fluentBit({ versions: [WindowsVersion.SERVER_2019] })).toThrow(/Fluent Bit publishes no Windows Server 2019 image.*Fix: give images: \{ '2019'/s);
    const own = fluentBit({ versions: [WindowsVersion.SERVER_2019], images: { [WindowsVersion.SERVER_2019]: 'registry.example/fluent-bit:ltsc2019-5.1.3' } });
    expect(only(own, 'DaemonSet').spec.template.spec.containers[0].image).toBe('registry.example/fluent-bit:ltsc2019-5.1.3');
    expect(() => new WindowsFluentBit(new Chart(new App(), 'c'), 'f', { versions: [], namespace: 'logging' })).toThrow(/versions: \[\] has fewer than 1 item/);
  });

  // fluent/fluent-bit v5.1.1 plugins/filter_kubernetes/kube_meta.c reads the container id from the
  // regex group docker_id (kube_regex.h KUBE_TAG_TO_REGEX names it so); a group named otherwise is dropped.
  test('the tag parser names the container id docker_id, the group the Kubernetes filter reads', () => {
    const parser = config.parsers.find((p: K8sObject) => p.name === 'kube-tag');
    expect(parser.regex).toContain('(?<docker_id>');
    expect(config.pipeline.inputs[0].tag).toContain('<docker_id>');
  });
});

// Fluent Bit refuses an output without `name` and does not start; the Kubernetes filter takes kube_url only
// with http:// or https:// (plugins/filter_kubernetes/kube_conf.c, flb_kube_conf_create); a property is one
// scalar value (the YAML configuration's outputs entries are flat maps of plugin properties).
describe('WindowsFluentBit refuses a configuration Fluent Bit refuses or misreads (issue 34.7)', () => {
  const build = (props: Partial<ConstructorParameters<typeof WindowsFluentBit>[2]>) => () => fluentBit(props);
  type Outputs = ConstructorParameters<typeof WindowsFluentBit>[2]['outputs'];
  test('an output without name, with a nested map, or with a prototype-named key', () => {
    expect(build({ outputs: [{ match: '*' }] })).toThrow(/\[logging\/fluent-bit\] outputs\[0\]: \{"match":"\*"\} has no name, and Fluent Bit refuses an output without one/);
    expect(build({ outputs: [{ name: 'http', match: '*', header: { 'X-Key': 'v' } }] as unknown as Outputs })).toThrow(/outputs\[0\]\.header: \{"X-Key":"v"\} is not a string, finite number or boolean \(or a list of them\): no output plugin reads a nested map there/);
    expect(build({ outputs: JSON.parse('[{"name": "stdout", "__proto__": {"match": "*"}}]') })).toThrow(/outputs\[0\]: .* has the key "__proto__"/);
    expect(build({ outputs: [{ name: 'stdout', __proto__: { match: '*' } }] as unknown as Outputs })).toThrow(/outputs\[0\]: .* is not a plain object/);
    expect(build({ outputs: JSON.parse('[{"name": "stdout", "processors": {"logs": [{"name": "content_modifier", "constructor": "x"}]}}]') })).toThrow(/outputs\[0\]\.processors\.logs\[0\]: .* has the key "constructor"/);
    expect(build({ outputs: [{ name: 'stdout', retry_limit: Infinity }] })).toThrow(/outputs\[0\]\.retry_limit: Infinity is not/);
    expect(build({ outputs: { name: 'stdout' } as unknown as Outputs })).toThrow(/outputs: \{"name":"stdout"\} is not a list/);
  });

  // Fluent Bit docs, administration/configuring-fluent-bit/yaml/pipeline-section: an output may carry
  // `processors` per signal; a property the plugin takes more than once is a list in YAML.
  test('valid outputs pass as written: booleans, a repeated property as a list, processors', () => {
    const outputs: Outputs = [{ name: 'http', match: '*', json_date_key: false, header: ['X-A a', 'X-B b'],
      processors: { logs: [{ name: 'content_modifier', action: 'insert', key: 'cluster', value: 'prod' }] } }];
    const written = parse(only(fluentBit({ outputs }), 'ConfigMap').data['fluent-bit.yaml']);
    expect(written.pipeline.outputs).toEqual(outputs);
  });

  test('a kube_url without a scheme', () => {
    expect(build({ kubeUrl: 'kubernetes.default.svc.cluster.local:443' })).toThrow(/kubeUrl: "kubernetes\.default\.svc\.cluster\.local:443" is not http\(s\):\/\/<host>\[:<port>\].*Fix: write it with its scheme/);
    expect(build({ kubeUrl: 'http://10.96.0.1' })).not.toThrow();
  });
});
