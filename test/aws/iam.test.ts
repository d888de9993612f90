import { Testing } from 'cdktn';
import { HybridClusterInfraStack, PolicyDocument, controlPlanePolicy, controllersPolicy, nodesPolicy } from '../../src/aws';
import { TfJson, all, dataRef, synthTf } from '../support/tf';
import { CLUSTERAWSADM_ACTIONS } from './fixtures/clusterawsadm-actions';

const SUFFIX = '.cluster-api-provider-aws.sigs.k8s.io';

function synth(iamNamePrefix?: string, selfHostedManagement?: boolean): TfJson {
  return synthTf(new HybridClusterInfraStack(Testing.app(), 'infra', { region: 'eu-north-1', clusterName: 'aws-test', iamNamePrefix, selfHostedManagement }));
}

/** `role <- policy` for every attachment, clusterawsadm's suffix dropped. */
function attachments(tf: TfJson): string[] {
  const byName = policies(tf);
  const roleOf = new Map(Object.entries(tf.resource?.aws_iam_role ?? {}).map(([id, r]) => [`\${aws_iam_role.${id}.name}`, (r.name as string).replace(SUFFIX, '')]));
  const policyOf = new Map([...byName].map(([name, p]) => [`\${aws_iam_policy.${p.logicalId}.arn}`, name.replace(SUFFIX, '')]));
  return all(tf, 'aws_iam_role_policy_attachment').map((a) => `${roleOf.get(a.role)} <- ${policyOf.get(a.policy_arn)}`).sort();
}

/** Logical id -> parsed policy document, and policy name -> logical id. */
function policies(tf: TfJson): Map<string, { logicalId: string; doc: PolicyDocument }> {
  return new Map(Object.entries(tf.resource?.aws_iam_policy ?? {}).map(([logicalId, p]) => [p.name as string, { logicalId, doc: JSON.parse(p.policy) }]));
}

function actions(doc: PolicyDocument): string[] {
  return [...new Set(doc.Statement.flatMap((s) => s.Action))].sort();
}

describe('IAM like clusterawsadm', () => {
  const tf = synth();
  const byName = policies(tf);
  const partition = dataRef(tf, 'aws_partition', 'partition');

  test('roles, policies and instance profiles carry clusterawsadm\'s names', () => {
    const names = ['control-plane', 'controllers', 'nodes'].map((n) => `${n}${SUFFIX}`);
    expect(all(tf, 'aws_iam_role').map((r) => r.name).sort()).toEqual(names);
    expect([...byName.keys()].sort()).toEqual(names);
    const profiles = Object.values(tf.resource?.aws_iam_instance_profile ?? {});
    expect(profiles).toHaveLength(3);
    for (const profile of profiles) expect(profile.name).toBe(profile.role);
  });

  test('roles may be assumed by EC2 only', () => {
    for (const role of all(tf, 'aws_iam_role')) {
      expect(JSON.parse(role.assume_role_policy)).toEqual({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['ec2.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      });
    }
  });

  test.each(Object.keys(CLUSTERAWSADM_ACTIONS) as (keyof typeof CLUSTERAWSADM_ACTIONS)[])('the %s policy has exactly clusterawsadm\'s actions', (name) => {
    expect(actions(byName.get(`${name}${SUFFIX}`)!.doc)).toEqual([...new Set(CLUSTERAWSADM_ACTIONS[name])].sort());
  });

  test('the control-plane role does not carry the CAPA controllers policy unless the cluster hosts its own management', () => {
    // clusterawsadm attaches the controllers policy (RunInstances, TerminateInstances, PassRole) to
    // the control-plane role; a hostNetwork pod on a controller with enableWorker could use it
    // through IMDS, so it is attached only for a self-hosted management cluster.
    expect(attachments(tf)).toEqual([
      'control-plane <- control-plane',
      'control-plane <- nodes',
      'controllers <- controllers',
      'nodes <- nodes',
    ]);
    expect(attachments(synth(undefined, true))).toEqual([
      'control-plane <- control-plane',
      'control-plane <- controllers',
      'control-plane <- nodes',
      'controllers <- controllers',
      'nodes <- nodes',
    ]);
  });

  test('no statement anywhere grants a wildcard action', () => {
    const docs = [...all(tf, 'aws_iam_policy').map((p) => JSON.parse(p.policy)), ...all(tf, 'aws_iam_role').map((r) => JSON.parse(r.assume_role_policy))];
    expect(docs).toHaveLength(6);
    for (const doc of docs) {
      for (const statement of doc.Statement) {
        for (const action of [statement.Action].flat()) expect(action).toMatch(/^[a-z0-9-]+:[A-Za-z0-9]+$/);
        expect(statement.NotAction).toBeUndefined();
      }
    }
  });

  test('Secrets Manager access is limited to CAPA\'s bootstrap secrets in this partition', () => {
    const prefix = `arn:${partition}:secretsmanager:*:*:secret:aws.cluster.x-k8s.io/*`;
    for (const { doc } of byName.values()) {
      for (const statement of doc.Statement.filter((s) => s.Action.some((a) => a.startsWith('secretsmanager:')))) {
        expect(statement.Resource).toEqual([prefix]);
        expect(statement.Action.every((a) => a.startsWith('secretsmanager:'))).toBe(true);
      }
    }
    const nodes = byName.get(`nodes${SUFFIX}`)!.doc;
    expect(nodes.Statement.find((s) => s.Resource.includes(prefix))?.Action).toEqual(['secretsmanager:DeleteSecret', 'secretsmanager:GetSecretValue']);
  });

  test('the controllers may pass only the control-plane and nodes roles', () => {
    const controllers = byName.get(`controllers${SUFFIX}`)!.doc;
    const passRole = controllers.Statement.filter((s) => s.Action.includes('iam:PassRole'));
    const arns = Object.entries(tf.resource?.aws_iam_role ?? {})
      .filter(([, r]) => r.name !== `controllers${SUFFIX}`)
      .map(([id]) => `\${aws_iam_role.${id}.arn}`);
    expect(passRole).toEqual([{ Effect: 'Allow', Resource: expect.arrayContaining(arns), Action: ['iam:PassRole'] }]);
    expect(passRole[0].Resource).toHaveLength(2);
  });

  test('service-linked roles only for the services that need them', () => {
    const linked = [...byName.values()].flatMap(({ doc }) => doc.Statement.filter((s) => s.Action.includes('iam:CreateServiceLinkedRole')));
    for (const s of linked) {
      expect(s.Action).toEqual(['iam:CreateServiceLinkedRole']);
      const service = s.Condition?.StringLike['iam:AWSServiceName'];
      expect(s.Resource).toEqual([expect.stringMatching(new RegExp(`^arn:.*:iam::\\*:role/aws-service-role/${service}/AWSServiceRoleFor`))]);
    }
    expect(linked.map((s) => s.Condition?.StringLike['iam:AWSServiceName']).sort()).toEqual([
      'autoscaling.amazonaws.com',
      'elasticloadbalancing.amazonaws.com',
      'elasticloadbalancing.amazonaws.com',
      'spot.amazonaws.com',
    ]);
  });
});

describe('IAM names', () => {
  test('a prefix lets two clusters share an account', () => {
    const tf = synth('aws-test-');
    expect(all(tf, 'aws_iam_role').map((r) => r.name).sort()).toEqual([
      `aws-test-control-plane${SUFFIX}`,
      `aws-test-controllers${SUFFIX}`,
      `aws-test-nodes${SUFFIX}`,
    ]);
    expect(all(tf, 'aws_iam_policy').map((p) => p.name).sort()).toEqual(all(tf, 'aws_iam_role').map((r) => r.name).sort());
  });

  test.each([
    ['a-prefix-that-is-too-long-', '[infra/Infra/Iam] iamNamePrefix "a-prefix-that-is-too-long-" makes "a-prefix-that-is-too-long-control-plane.cluster-api-provider-aws.sigs.k8s.io" (76 characters)'],
    ['bad/prefix', 'use a prefix of at most 14 such characters'],
  ])('rejects prefix %s', (prefix, message) => {
    expect(() => synth(prefix)).toThrow(message);
  });
});

describe('policy documents as data', () => {
  test.each([
    ['control-plane', controlPlanePolicy('aws')],
    ['nodes', nodesPolicy('aws')],
    ['controllers', controllersPolicy('aws', ['arn:aws:iam::1:role/x'])],
  ])('%s lists each action once (service-linked roles aside: one statement per service)', (_, doc) => {
    const list = doc.Statement.flatMap((s) => s.Action).filter((a) => a !== 'iam:CreateServiceLinkedRole');
    expect(new Set(list).size).toBe(list.length);
  });

  test('ARNs use the partition given', () => {
    const text = JSON.stringify([controlPlanePolicy('aws-cn'), nodesPolicy('aws-cn'), controllersPolicy('aws-cn', [])]);
    expect(text).not.toMatch(/arn:(?!aws-cn:)/);
  });
});
