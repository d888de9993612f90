import { ApiObject, ApiObjectProps, App } from 'cdk8s';
import { EKS_WORKLOAD_RULES, HybridValidation, Manifest, PluginValidationContext, WindowsPlatform, validateManifests } from '../../src';
import { HybridChart, PodTemplatePolicy } from '../../src/workloads';
import { all, synthTf } from '../support/tf';
import { synthObjects } from '../support/synth';
import { WindowsAppChart } from '../../examples/windows-app/main';
import { hybridStack } from './fixture';
import { toleratesTaint, windowsAppPods } from '../support/windows-app';

/** EKS spells taint effects in capitals (CreateNodegroup `taints[].effect`); Kubernetes in camel case. */
const KUBERNETES_EFFECT: Record<string, string> = { NO_SCHEDULE: 'NoSchedule', NO_EXECUTE: 'NoExecute', PREFER_NO_SCHEDULE: 'PreferNoSchedule' };

test('the windows-app workloads, unchanged, tolerate the taint of the EKS Windows node group and stay off it otherwise', () => {
  const tainted = all(synthTf(hybridStack().stack), 'aws_eks_node_group').find((g) => g.taint);
  expect(tainted).toBeDefined();
  const [taint] = tainted.taint;
  const nodeTaint = { key: taint.key, value: taint.value, effect: KUBERNETES_EFFECT[taint.effect] };
  const { windows, linux } = windowsAppPods();
  expect(windows.length).toBeGreaterThan(0);
  expect(linux.length).toBeGreaterThan(0);
  for (const pod of windows) expect([pod.name, toleratesTaint(pod.spec.tolerations, nodeTaint)]).toEqual([pod.name, true]);
  for (const pod of linux) expect([pod.name, toleratesTaint(pod.spec.tolerations, nodeTaint)]).toEqual([pod.name, false]);
});

/**
 * On EKS the VPC resource controller's pod webhook gives a pod the vpc.amazonaws.com/PrivateIPv4Address
 * resource (its address on a Windows node) only when its nodeSelector says kubernetes.io/os or
 * beta.kubernetes.io/os: windows, and skips host-network pods (aws/amazon-vpc-resource-controller-k8s
 * v1.7.19 webhooks/core/pod_webhook.go, WhichPod and hasWindowsNodeSelector). RuntimeClass
 * admission merges the class's nodeSelector into the pod before mutating webhooks run (kubernetes
 * pkg/kubeapiserver/options/plugins.go, AllOrderedPlugins). (issue 17.14)
 */
describe('Windows pods on EKS select Windows by nodeSelector, or get no address', () => {
  const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
  const TOLERATION = { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };
  const byAffinity = {
    nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }],
  };
  const deployment = (spec: object): Manifest => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'iis' },
    spec: { selector: { matchLabels: { app: 'iis' } }, template: { metadata: { labels: { app: 'iis' } }, spec: {
      os: { name: 'windows' }, tolerations: [TOLERATION],
      containers: [{ name: 'iis', image: IIS, resources: { requests: { cpu: '500m', memory: '512Mi' } } }],
      ...spec,
    } } },
  });
  const eksMessages = (objects: Manifest[]) => validateManifests(objects, { platform: WindowsPlatform.EKS }).map((v) => `${v.rule}: ${v.message}`);

  test('node affinity alone passes the Windows rules but is reported on EKS', () => {
    const affinityOnly = deployment({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: byAffinity } } });
    expect(validateManifests([affinityOnly])).toEqual([]);
    expect(eksMessages([affinityOnly])).toEqual([expect.stringMatching(
      /^eks-pod-address: spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: must be "windows" on EKS: the pod selects Windows nodes some other way \(spec\.os\.name=windows, required node affinity on the OS label\), and the VPC resource controller gives an address only to pods whose nodeSelector names Windows, so it would hang in ContainerCreating/,
    )]);
  });

  test.each([
    ['the nodeSelector', { nodeSelector: { 'kubernetes.io/os': 'windows' } }],
    ['the beta label the webhook also reads', { nodeSelector: { 'beta.kubernetes.io/os': 'windows' }, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: byAffinity } } }],
    ['a RuntimeClass whose scheduling names Windows', { runtimeClassName: 'windows-2022', affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: byAffinity } } }],
  ])('Windows selected through %s gets its address', (_, spec) => {
    const runtimeClass: Manifest = { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'windows-2022' }, handler: 'runhcs-wcow-process', scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [TOLERATION] } };
    expect(validateManifests([deployment(spec), runtimeClass], { platform: WindowsPlatform.EKS, rules: EKS_WORKLOAD_RULES })).toEqual([]);
  });

  test('host-network pods are not the webhook\'s to address', () => {
    const hostProcess = deployment({
      hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: byAffinity } },
    });
    expect(validateManifests([hostProcess], { rules: EKS_WORKLOAD_RULES })).toEqual([]);
  });

  test('a HybridChart for EKS refuses such a pod at synth, with the construct path; the same chart elsewhere does not', () => {
    const build = (platform?: WindowsPlatform) => {
      const app = new App();
      const chart = new HybridChart(app, 'apps', { platform });
      const d = deployment({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: byAffinity } } });
      new ApiObject(chart, 'iis', d as ApiObjectProps);
      return () => synthObjects(app);
    };
    expect(build(WindowsPlatform.EKS)).toThrow(/\[apps\/PodTemplatePolicy\] apps\/iis \(Deployment iis\) spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: must be "windows" on EKS/);
    expect(build()).not.toThrow();
  });

  test('the windows-app workloads pass as an EKS chart (WindowsPod writes the nodeSelector)', () => {
    const app = new App();
    const chart = new WindowsAppChart(app, 'windows-app');
    PodTemplatePolicy.of(chart).checkFor(WindowsPlatform.EKS);
    expect(validateManifests(synthObjects(app), { platform: WindowsPlatform.EKS })).toEqual([]);
  });

  test('the cdk8s validation plugin applies them with ruleSets: [eks]', async () => {
    const violations: string[] = [];
    const ctx: PluginValidationContext = {
      manifests: ['dist/apps.k8s.yaml'],
      parseManifest: () => [deployment({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: byAffinity } } })],
      report: { addViolation: (v) => violations.push(v.ruleName), submit: () => undefined },
    };
    await new HybridValidation({ ruleSets: ['eks'] }).validate(ctx);
    expect(violations).toEqual(['eks-pod-address']);
  });
});
