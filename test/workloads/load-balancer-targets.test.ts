import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { EKS_WORKLOAD_RULES, Manifest, WindowsPlatform, adviseManifests, validateManifests } from '../../src';
import { HybridChart, PodTemplatePolicy, WindowsWorkload } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const TARGET_NODE_LABELS = 'service.beta.kubernetes.io/aws-load-balancer-target-node-labels';
const TARGET_TYPE = 'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type';

/** An ingress controller on Linux behind a LoadBalancer Service, and a Windows workload, as plain YAML. */
function objects(annotations?: Record<string, string>, spec: Record<string, unknown> = {}): Manifest[] {
  return [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ingress-nginx-controller', namespace: 'ingress', annotations }, spec: { type: 'LoadBalancer', selector: { app: 'ingress-nginx' }, ports: [{ port: 80 }], ...spec } },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ingress-nginx-controller', namespace: 'ingress' }, spec: {
      selector: { matchLabels: { app: 'ingress-nginx' } },
      template: { metadata: { labels: { app: 'ingress-nginx' } }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.14.0' }] } },
    } },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'iis', namespace: 'shop' }, spec: {
      selector: { matchLabels: { app: 'iis' } },
      template: { metadata: { labels: { app: 'iis' } }, spec: {
        os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
        containers: [{ name: 'iis', image: IIS, resources: { requests: { cpu: '500m', memory: '512Mi' } } }],
      } },
    } },
  ];
}
const lbFindings = (objs: Manifest[]) => validateManifests(objs, { platform: WindowsPlatform.EKS }).filter((v) => v.rule === 'load-balancer-targets');

// The AWS Load Balancer Controller (docs/guide/service/annotations.md) and the AWS cloud provider
// register every node in instance mode, the default of both, unless target-node-labels select some.
describe('LoadBalancer Services of Linux pods stay off Windows nodes (issue 27.4)', () => {
  test('instance mode in a cluster with Windows pods is refused, naming both annotations', () => {
    const [v] = lbFindings(objects());
    expect([v.kind, v.namespace, v.name, v.field]).toEqual(['Service', 'ingress', 'ingress-nginx-controller', 'metadata.annotations']);
    expect(v.message).toMatch(/instance mode in a cluster with Windows nodes: the AWS load balancer registers every node, Windows ones included.*ingress-nginx#5027.*Fix: annotate it service\.beta\.kubernetes\.io\/aws-load-balancer-target-node-labels: kubernetes\.io\/os=linux .* or service\.beta\.kubernetes\.io\/aws-load-balancer-nlb-target-type: ip/s);
    expect(lbFindings(objects({ [TARGET_TYPE]: 'instance' }))).toHaveLength(1);
    expect(lbFindings(objects({ [TARGET_NODE_LABELS]: 'role=ingress' }))).toHaveLength(1);
  });

  test('IP mode, Linux target node labels, another class, or no Windows pods pass', () => {
    expect(lbFindings(objects({ [TARGET_TYPE]: 'ip' }))).toEqual([]);
    expect(lbFindings(objects({ [TARGET_NODE_LABELS]: 'role=ingress, kubernetes.io/os=linux' }))).toEqual([]);
    expect(lbFindings(objects(undefined, { loadBalancerClass: 'example.com/metallb' }))).toEqual([]);
    expect(lbFindings(objects().slice(0, 2))).toEqual([]);
    // Not on every platform: the annotations are AWS's.
    expect(validateManifests(objects()).filter((v) => v.rule === 'load-balancer-targets')).toEqual([]);
    expect(EKS_WORKLOAD_RULES.map((r) => r.name)).toContain('load-balancer-targets');
  });

  // kubernetes pkg/proxy/healthcheck/service_health.go: with externalTrafficPolicy Local each node's
  // kube-proxy answers the Service's healthCheckNodePort with 503 unless it has a ready local endpoint,
  // and the Windows proxier serves it too (pkg/proxy/winkernel/proxier.go, serviceHealthServer): the
  // load balancer marks Windows nodes unhealthy and sends them nothing.
  test('externalTrafficPolicy Local passes: its health check keeps traffic off nodes without endpoints', () => {
    expect(lbFindings(objects(undefined, { externalTrafficPolicy: 'Local' }))).toEqual([]);
    expect(lbFindings(objects(undefined, { externalTrafficPolicy: 'Cluster' }))).toHaveLength(1);
  });

  // kubernetes-sigs/aws-load-balancer-controller docs/guide/service/nlb.md (Configuration) and
  // docs/deploy/installation.md ("When using AWS Load Balancer Controller v2.5+": the Service webhook sets
  // spec.loadBalancerClass on create): nlb-target-type is the controller's, ignored by the cloud provider.
  test('nlb-target-type ip without a sign that the AWS Load Balancer Controller owns the Service draws advice, not a refusal', () => {
    const advice = (objs: Manifest[]) => adviseManifests(objs, { platform: WindowsPlatform.EKS }).filter((v) => v.rule === 'load-balancer-targets');
    const [a] = advice(objects({ [TARGET_TYPE]: 'ip' }));
    expect(a.message).toMatch(/nlb-target-type: ip keeps Windows nodes out only if the AWS Load Balancer Controller owns this Service.*Fix: say so in the Service: service\.beta\.kubernetes\.io\/aws-load-balancer-type: external or spec\.loadBalancerClass: service\.k8s\.aws\/nlb/s);
    expect(advice(objects({ [TARGET_TYPE]: 'ip', 'service.beta.kubernetes.io/aws-load-balancer-type': 'external' }))).toEqual([]);
    expect(advice(objects({ [TARGET_TYPE]: 'ip' }, { loadBalancerClass: 'service.k8s.aws/nlb' }))).toEqual([]);
    expect(lbFindings(objects({ [TARGET_TYPE]: 'ip' }))).toEqual([]);
  });

  test('HybridChart annotates the LoadBalancer Services of its Linux pods, keeping labels they select by, and leaves the others', () => {
    const app = new App();
    const chart = new HybridChart(app, 'ingress', { namespace: 'ingress', platform: WindowsPlatform.EKS });
    const linux = new kplus.Deployment(chart, 'nginx', { containers: [{ image: 'nginx:1.27', portNumber: 80 }] });
    linux.exposeViaService({ name: 'web', serviceType: kplus.ServiceType.LOAD_BALANCER });
    linux.exposeViaService({ name: 'web-ip', serviceType: kplus.ServiceType.LOAD_BALANCER }).metadata.addAnnotation(TARGET_TYPE, 'ip');
    linux.exposeViaService({ name: 'web-role', serviceType: kplus.ServiceType.LOAD_BALANCER }).metadata.addAnnotation(TARGET_NODE_LABELS, 'role=edge');
    linux.exposeViaService({ name: 'web-internal', serviceType: kplus.ServiceType.CLUSTER_IP });
    new WindowsWorkload(chart, 'iis', { image: IIS, port: 80 }).exposeViaService({ name: 'iis', serviceType: kplus.ServiceType.LOAD_BALANCER });
    const objs = synthObjects(app);
    const annotation = (name: string) => only(objs, 'Service', name).metadata.annotations?.[TARGET_NODE_LABELS];
    expect(annotation('web')).toBe('kubernetes.io/os=linux');
    expect(annotation('web-role')).toBe('role=edge,kubernetes.io/os=linux');
    expect(annotation('web-ip')).toBeUndefined();
    expect(annotation('web-internal')).toBeUndefined();
    expect(annotation('iis')).toBeUndefined();
    expect(validateManifests(objs, { platform: WindowsPlatform.EKS })).toEqual([]);
    // A plain chart does not: the rule then fires on its synth with the EKS checks.
    const plain = new App();
    const c = new Chart(plain, 'ingress', { namespace: 'ingress' });
    new kplus.Deployment(c, 'nginx', { containers: [{ image: 'nginx:1.27', portNumber: 80 }] }).exposeViaService({ name: 'web', serviceType: kplus.ServiceType.LOAD_BALANCER });
    new WindowsWorkload(c, 'iis', { image: IIS });
    const plainObjects = synthObjects(plain);
    expect(only(plainObjects, 'Service').metadata.annotations?.[TARGET_NODE_LABELS]).toBeUndefined();
    expect(lbFindings(plainObjects)).toHaveLength(1);
  });
});

test('on k0smotron\'s AWS clusters too: the platform adds the rule to validateManifests and to HybridChart', () => {
  expect(validateManifests(objects(), { platform: WindowsPlatform.K0SMOTRON_AWS }).filter((v) => v.rule === 'load-balancer-targets')).toHaveLength(1);
  expect(validateManifests(objects(), { platform: WindowsPlatform.K0SMOTRON_REMOTE }).filter((v) => v.rule === 'load-balancer-targets')).toEqual([]);
  const app = new App();
  const chart = new Chart(app, 'ingress', { namespace: 'ingress' });
  PodTemplatePolicy.of(chart).checkFor(WindowsPlatform.K0SMOTRON_AWS);
  new kplus.Deployment(chart, 'nginx', { containers: [{ image: 'nginx:1.27', portNumber: 80 }] }).exposeViaService({ name: 'web', serviceType: kplus.ServiceType.LOAD_BALANCER });
  new WindowsWorkload(chart, 'iis', { image: IIS });
  expect(() => app.synthYaml()).toThrow(/ingress\/nginx.*Service web\) a LoadBalancer Service of pods on Linux, in instance mode/s);
});
