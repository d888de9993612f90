import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, JsonPatch } from 'cdk8s';
import { celMap, parse, plan } from '@bufbuild/cel';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { validateManifests } from '../../src';
import { CRD_CEL_RULES } from '../../src/generated/crd-cel-rules';
import { CelSchemaNode, celRulesOf, celViolations, kubernetesEnv, NATIVE_RULES } from '../../src/rules/cluster/crd-cel';
import { CRD_DIR, describeWithCrds } from '../support/crd-schemas';
import { synthObjects } from '../support/synth';
import { hybridCluster } from './fixture';

type Expr = ReturnType<typeof parse>['expr'];

/** Synthesizes through the App (validations on) and returns the error message, or '' when it passes. */
function synthError(patch: (f: ReturnType<typeof hybridCluster>) => void): string {
  const fixture = hybridCluster();
  patch(fixture);
  try {
    synthObjects(fixture.app);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the CRDs\' CEL rules run in every synth', () => {
  test('a JSON patch that breaks a MachineHealthCheck rule fails the synth, naming the construct', () => {
    const message = synthError(({ linux }) => ApiObject.of(linux!.machineHealthCheck!).addJsonPatch(
      JsonPatch.add('/spec/checks/unhealthyMachineConditions', [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }])));
    expect(message).toContain('[mgmt/prod/linux] MachineHealthCheck prod-linux: spec.checks.unhealthyMachineConditions[0].type: '
      + 'type must not be one of: Ready, Available, HealthCheckSucceeded, OwnerRemediated, ExternallyRemediated');
    expect(message).toMatch(/the API server refuses MachineHealthCheck prod-linux\)\. Fix: change the fields the rule reads/);
  });

  test('a rule on an object node: capacityReservationId beside a Spot market on a machine template', () => {
    const message = synthError(({ windows }) => ApiObject.of(windows!.machineTemplate).addJsonPatch(
      JsonPatch.add('/spec/template/spec/capacityReservationId', 'cr-0123456789abcdef0'),
      JsonPatch.add('/spec/template/spec/marketType', 'Spot')));
    expect(message).toMatch(/\[mgmt\/prod\/win\] AWSMachineTemplate prod-win-[0-9a-f]+: spec\.template\.spec: capacityReservationId may not be set when marketType is Spot/);
  });

  test('a rule on a string: an AWSCluster carrier gateway id', () => {
    const message = synthError(({ cluster }) => ApiObject.of(cluster.awsCluster).addJsonPatch(
      JsonPatch.add('/spec/network/vpc', { carrierGatewayId: 'igw-1' })));
    expect(message).toContain("[mgmt/prod] AWSCluster prod: spec.network.vpc.carrierGatewayId: Carrier Gateway ID must start with 'cagw-'");
  });

  test('validateManifests applies them to YAML written elsewhere', () => {
    const mhc = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineHealthCheck',
      metadata: { name: 'm' },
      spec: { clusterName: 'c', selector: { matchLabels: { a: 'b' } }, checks: { unhealthyMachineConditions: [{ type: 'Available', status: 'False' }] } },
    };
    expect(validateManifests([mhc]).filter((v) => v.rule === 'crd-cel')).toEqual([expect.objectContaining({
      kind: 'MachineHealthCheck', name: 'm', field: 'spec.checks.unhealthyMachineConditions[0].type',
    })]);
  });
});

describe('evaluating a rule', () => {
  const schema = (rule: { rule: string; message?: string; messageExpression?: string }): CelSchemaNode => ({
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { replicas: { type: 'integer' }, mode: { type: 'string', default: 'auto' } }, 'x-kubernetes-validations': [rule] },
    },
  });

  test('integer fields are CEL ints (JSON numbers are doubles, which have no `%`)', () => {
    const rules = celRulesOf(schema({ rule: 'self.replicas % 2 == 1', message: 'odd' }));
    expect(celViolations({ spec: { replicas: 4 } }, rules).map((v) => [v.message, v.unevaluated])).toEqual([['odd', false]]);
    expect(celViolations({ spec: { replicas: 3 } }, rules)).toEqual([]);
  });

  test('defaults of the node\'s fields are filled in first, as the API server does', () => {
    const rules = celRulesOf(schema({ rule: "self.mode == 'auto' || has(self.replicas)", message: 'manual needs replicas' }));
    expect(celViolations({ spec: {} }, rules)).toEqual([]);
    expect(celViolations({ spec: { mode: 'manual' } }, rules).map((v) => v.message)).toEqual(['manual needs replicas']);
  });

  test('messageExpression gives the message when it evaluates to a string', () => {
    const rules = celRulesOf(schema({ rule: 'self.replicas <= 5', messageExpression: "'replicas ' + string(self.replicas) + ' > 5'", message: 'too many' }));
    expect(celViolations({ spec: { replicas: 9 } }, rules).map((v) => v.message)).toEqual(['replicas 9 > 5']);
  });

  test('a rule that reads only some fields has its result for their absence computed once, and agrees with evaluating it', () => {
    const [rule] = celRulesOf(schema({ rule: '!has(self.replicas) || self.replicas > 0', message: 'positive' }));
    expect(rule).toMatchObject({ reads: ['replicas'], whenAbsent: true });
    // Forcing the opposite precomputed result shows which path decided.
    expect(celViolations({ spec: {} }, [{ ...rule, whenAbsent: false }])).toHaveLength(1);
    expect(celViolations({ spec: { replicas: 0 } }, [{ ...rule, whenAbsent: true }])).toHaveLength(1);
    const { reads, whenAbsent, ...evaluated } = rule;
    expect([reads, whenAbsent]).toEqual([['replicas'], true]);
    expect(celViolations({ spec: {} }, [evaluated])).toEqual([]);
  });

  test('a transition rule (reads oldSelf) is marked and not judged: a synth has no stored object', () => {
    const rules = celRulesOf(schema({ rule: 'self.replicas == oldSelf.replicas', message: 'immutable' }));
    expect(rules).toEqual([expect.objectContaining({ transition: true })]);
    expect(celViolations({ spec: { replicas: 1 } }, rules)).toEqual([]);
  });

  test('a rule the engine cannot evaluate is reported, never passed over', () => {
    const rules = celRulesOf(schema({ rule: 'self.replicas.isFrobnicated()', message: 'x' }));
    expect(celViolations({ spec: { replicas: 1 } }, rules)).toEqual([expect.objectContaining({ unevaluated: true, field: 'spec' })]);
    const broken = celRulesOf(schema({ rule: 'self.replicas <=', message: 'x' }));
    expect(celViolations({ spec: { replicas: 1 } }, broken)).toEqual([expect.objectContaining({ unevaluated: true, message: expect.stringMatching(/^cannot compile/) })]);
  });
});

describeWithCrds('the generated CEL rules', () => {
  // The CRD files `npm run import` generates from, read from its own list.
  const script = readFileSync(join(__dirname, '..', '..', 'scripts', 'import-crds.mjs'), 'utf8');
  const files = [...script.matchAll(/'([\w-]+\/[\w.-]+\.yaml)'/g)].map((m) => m[1]);

  test('match the pinned CRDs (run `npm run import` after a re-pin)', () => {
    const expected: Record<string, unknown> = {};
    for (const file of files) {
      const crd = parseYaml(readFileSync(join(CRD_DIR, file), 'utf8'));
      const version = crd.spec.versions.find((v: { storage: boolean }) => v.storage);
      expected[`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`] = celRulesOf(version.schema.openAPIV3Schema);
    }
    expect(files.length).toBeGreaterThanOrEqual(7);
    expect(CRD_CEL_RULES).toEqual(expected);
  });

  test('every rule of an emitted kind compiles, and every function it calls is one the engine has', () => {
    const env = kubernetesEnv();
    // Operators the engine's planner evaluates itself rather than through its function table.
    const planned = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '@not_strictly_false']);
    const rules = Object.values(CRD_CEL_RULES).flat().filter((r) => !r.transition);
    expect(rules.length).toBeGreaterThan(0);
    for (const { rule } of rules) {
      const called = functionsCalled(parse(rule).expr).filter((f) => !planned.has(f) && !env.funcs.find(f));
      expect({ rule, unbound: called }).toEqual({ rule, unbound: [] });
    }
  });
});

// Kubernetes' CEL libraries beyond the standard one (k8s.io/apiserver pkg/cel/library/regex.go, cel-go ext/strings.go),
// as the Karpenter CRDs use them.
test.each([
  ['"karpenter.sh/nodepool".find("^([^/]+)")', 'karpenter.sh'],
  ['"no-slash".find("^x")', ''],
  ['"a1b22c333".findAll("[0-9]+")', ['1', '22', '333']],
  ['"a1b22c333".findAll("[0-9]+", 2)', ['1', '22']],
  ['"windows2022@latest".split("@")[1]', 'latest'],
])('the CEL environment: %s', (expression, expected) => {
  const value = plan(kubernetesEnv(), parse(expression))({});
  expect(Array.isArray(expected) ? [...(value as Iterable<unknown>)] : value).toEqual(expected);
});

/** Every function name an expression calls (operators included, in CEL's `_op_` naming). */
function functionsCalled(expr: Expr | undefined): string[] {
  const kind = expr?.exprKind;
  switch (kind?.case) {
    case 'selectExpr': return functionsCalled(kind.value.operand);
    case 'callExpr': return [kind.value.function, ...functionsCalled(kind.value.target), ...kind.value.args.flatMap(functionsCalled)];
    case 'listExpr': return kind.value.elements.flatMap(functionsCalled);
    case 'structExpr': return kind.value.entries.flatMap((e) => functionsCalled(e.value));
    case 'comprehensionExpr': return [kind.value.iterRange, kind.value.accuInit, kind.value.loopCondition, kind.value.loopStep, kind.value.result].flatMap(functionsCalled);
    default: return [];
  }
}

describe('rules computed without the engine give the engine\'s result', () => {
  test.each(Object.keys(NATIVE_RULES))('%s', (expression) => {
    const program = plan(kubernetesEnv(), parse(expression));
    const item = fc.dictionary(fc.constantFrom('name', 'value', 'other'), fc.oneof(fc.constantFrom('a', 'b', 'c', ''), fc.integer({ min: 0, max: 2 })), { maxKeys: 3 });
    fc.assert(fc.property(fc.array(item, { maxLength: 6 }), (list) => {
      const native = NATIVE_RULES[expression](list);
      const engine = program({ self: list.map((o) => celMap(new Map(Object.entries(o)))) });
      // Where the code judges, it agrees with the engine; it leaves the rest (errors included) to it.
      if (native !== undefined) expect(native).toBe(engine);
      else expect(list.every((o) => typeof o.name === 'string')).toBe(false);
    }), { numRuns: 300 });
    // And it judges the lists CAPZ's kubeadm objects carry.
    expect(NATIVE_RULES[expression]([{ name: 'cloud-provider', value: 'external' }, { name: 'cloud-provider', value: 'azure' }])).toBe(false);
  });
});
