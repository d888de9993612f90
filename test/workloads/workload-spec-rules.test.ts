import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { validateManifests, WORKLOAD_RULES } from '../../src';
import { cronScheduleProblem, timeZoneProblem } from '../../src/platform/cron-schedule';

// What kube-apiserver's Go validation refuses in workload specs beyond the OpenAPI schema, after its
// defaults. Sources: kubernetes v1.34 pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec,
// ValidateDeploymentStrategy, ValidateRollingUpdateDeployment, ValidateReplicaSetSpec,
// ValidateStatefulSetSpec, validateRollingUpdateStatefulSet, ValidateDaemonSetSpec,
// ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet, ValidatePositiveIntOrPercent,
// IsNotMoreThan100Percent), pkg/apis/batch/validation/validation.go (validateJobSpec,
// validateCronJobSpec, validateScheduleFormat, validateTimeZone), pkg/apis/apps/v1/defaults.go
// (SetDefaults_Deployment: replicas 1, RollingUpdate 25%/25%, progressDeadlineSeconds 600;
// SetDefaults_DaemonSet: maxUnavailable 1, maxSurge 0; SetDefaults_StatefulSet: RollingUpdate,
// partition 0); robfig/cron v3.0.1 parser.go (ParseStandard) and spec.go (bounds).

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const RULES = ['workload-counts', 'rollout-strategy', 'cronjob-schedule', 'job-indexed', 'workload-restart-policy'];

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.27' }] } });
const jobTemplate = { metadata: {}, spec: { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox:1.36' }] } };

const workload = (kind: string, spec: Obj): Obj => {
  const apiVersion = kind === 'Job' || kind === 'CronJob' ? 'batch/v1' : 'apps/v1';
  const base: Obj = kind === 'Job' ? { template: jobTemplate }
    : kind === 'CronJob' ? { schedule: '*/5 * * * *', jobTemplate: { spec: { template: jobTemplate } } }
    : { selector: { matchLabels: { app: 'web' } }, template: template('web'), ...(kind === 'StatefulSet' ? { serviceName: 'web' } : {}) };
  return { apiVersion, kind, metadata: { name: 'web', namespace: 'apps' }, spec: { ...base, ...spec } };
};

/** The fields the three rules refuse in the objects, as `rule field`. */
function refused(...objects: Obj[]): string[] {
  return validateManifests(objects, { rules: WORKLOAD_RULES.filter((r) => RULES.includes(r.name)) }).map((v) => `${v.rule} ${v.field}`);
}

describe('workload-counts: what ValidateNonnegativeField refuses', () => {
  test.each([
    ['Deployment', 'replicas'], ['Deployment', 'minReadySeconds'], ['Deployment', 'revisionHistoryLimit'], ['Deployment', 'progressDeadlineSeconds'],
    ['ReplicaSet', 'replicas'], ['ReplicaSet', 'minReadySeconds'],
    ['StatefulSet', 'replicas'], ['StatefulSet', 'minReadySeconds'],
    ['DaemonSet', 'minReadySeconds'], ['DaemonSet', 'revisionHistoryLimit'],
    ['Job', 'parallelism'], ['Job', 'completions'], ['Job', 'activeDeadlineSeconds'], ['Job', 'backoffLimit'], ['Job', 'ttlSecondsAfterFinished'],
    ['Job', 'backoffLimitPerIndex'], ['Job', 'maxFailedIndexes'],
    ['CronJob', 'startingDeadlineSeconds'], ['CronJob', 'successfulJobsHistoryLimit'], ['CronJob', 'failedJobsHistoryLimit'],
  ])('%s spec.%s: -1 is refused, 0 accepted (progressDeadlineSeconds: 1, above minReadySeconds)', (kind, field) => {
    // Only this rule: a Job's backoffLimitPerIndex and maxFailedIndexes alone also break job-indexed.
    const counted = (o: Obj) => refused(o).filter((f) => f.startsWith('workload-counts '));
    expect(counted(workload(kind, { [field]: -1 }))).toEqual([`workload-counts spec.${field}`]);
    expect(counted(workload(kind, { [field]: field === 'progressDeadlineSeconds' ? 1 : 0 }))).toEqual([]);
  });

  test('the message names the field and the value, the fix names the field', () => {
    const [v] = validateManifests([workload('Deployment', { replicas: -1 })]).filter((x) => x.rule === 'workload-counts');
    expect(v.message).toBe('spec.replicas: -1 is negative, which the API server refuses. Fix: set spec.replicas to 0 or more, or leave it out for its default.');
  });

  test('StatefulSet: ordinals.start and a rolling update\'s partition; not its revisionHistoryLimit, which ValidateStatefulSetSpec does not check', () => {
    expect(refused(workload('StatefulSet', { ordinals: { start: -1 } }))).toEqual(['workload-counts spec.ordinals.start']);
    expect(refused(workload('StatefulSet', { updateStrategy: { rollingUpdate: { partition: -1 } } }))).toEqual(['workload-counts spec.updateStrategy.rollingUpdate.partition']);
    expect(refused(workload('StatefulSet', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }))).toEqual([]);
    expect(refused(workload('StatefulSet', { revisionHistoryLimit: -1 }))).toEqual([]);
  });

  test('a CronJob\'s job template is a Job spec', () => {
    expect(refused(workload('CronJob', { jobTemplate: { spec: { template: jobTemplate, backoffLimit: -1, parallelism: -2 } } })))
      .toEqual(['workload-counts spec.jobTemplate.spec.parallelism', 'workload-counts spec.jobTemplate.spec.backoffLimit']);
  });

  test('progressDeadlineSeconds must exceed minReadySeconds, at its default of 600 too', () => {
    expect(refused(workload('Deployment', { minReadySeconds: 30, progressDeadlineSeconds: 30 }))).toEqual(['workload-counts spec.progressDeadlineSeconds']);
    expect(refused(workload('Deployment', { progressDeadlineSeconds: 0 }))).toEqual(['workload-counts spec.progressDeadlineSeconds']);
    expect(refused(workload('Deployment', { minReadySeconds: 30, progressDeadlineSeconds: 31 }))).toEqual([]);
    expect(refused(workload('Deployment', { minReadySeconds: 600 }))).toEqual(['workload-counts spec.minReadySeconds']);
    expect(refused(workload('Deployment', { minReadySeconds: 599 }))).toEqual([]);
    expect(refused(workload('Deployment', { minReadySeconds: 600, progressDeadlineSeconds: 601 }))).toEqual([]);
    // ReplicaSets, StatefulSets and DaemonSets have no progress deadline.
    expect(refused(workload('DaemonSet', { minReadySeconds: 900 }), workload('StatefulSet', { minReadySeconds: 900 }))).toEqual([]);
  });
});

describe('rollout-strategy', () => {
  const deployment = (rollingUpdate: Obj | null, type?: string) => workload('Deployment', { strategy: { ...(type ? { type } : {}), rollingUpdate } });
  const daemonSet = (rollingUpdate: Obj | null, type?: string) => workload('DaemonSet', { updateStrategy: { ...(type ? { type } : {}), rollingUpdate } });

  test('Deployment: refused values, each at its field', () => {
    expect(refused(deployment({ maxSurge: 0, maxUnavailable: 0 }))).toEqual(['rollout-strategy spec.strategy.rollingUpdate.maxUnavailable']);
    expect(refused(deployment({ maxSurge: '0%', maxUnavailable: '0%' }, 'RollingUpdate'))).toEqual(['rollout-strategy spec.strategy.rollingUpdate.maxUnavailable']);
    expect(refused(deployment({ maxUnavailable: '101%' }))).toEqual(['rollout-strategy spec.strategy.rollingUpdate.maxUnavailable']);
    expect(refused(deployment({ maxSurge: -1 }))).toEqual(['rollout-strategy spec.strategy.rollingUpdate.maxSurge']);
    expect(refused(deployment({ maxSurge: '1' }))).toEqual(['rollout-strategy spec.strategy.rollingUpdate.maxSurge']);
    expect(refused(deployment({ maxUnavailable: '12.5%' }))).toEqual(['rollout-strategy spec.strategy.rollingUpdate.maxUnavailable']);
    expect(refused(deployment({}, 'Recreate'))).toEqual(['rollout-strategy spec.strategy.rollingUpdate']);
  });

  test('Deployment: accepted edges', () => {
    expect(refused(
      workload('Deployment', {}),
      workload('Deployment', { replicas: 0 }),
      deployment({ maxSurge: 0, maxUnavailable: 1 }),
      deployment({ maxSurge: 0 }), // maxUnavailable defaults to 25%
      deployment({ maxUnavailable: 0 }), // maxSurge defaults to 25%
      deployment({ maxSurge: '25%', maxUnavailable: '25%' }),
      deployment({ maxSurge: '200%', maxUnavailable: '100%' }), // only maxUnavailable is capped at 100%
      deployment(null, 'Recreate'),
      workload('Deployment', { strategy: { type: 'Recreate' } }),
      deployment(null),
    )).toEqual([]);
  });

  test('DaemonSet: exactly one of maxSurge and maxUnavailable non-zero, at their defaults (maxUnavailable 1, maxSurge 0)', () => {
    const [surging] = validateManifests([daemonSet({ maxSurge: 1 })]).filter((v) => v.rule === 'rollout-strategy');
    expect(surging.field).toBe('spec.updateStrategy.rollingUpdate.maxSurge');
    expect(surging.message).toContain('maxUnavailable defaults to 1 when left out');
    expect(surging.fix).toContain('spec.updateStrategy.rollingUpdate.maxUnavailable: 0');
    expect(refused(daemonSet({ maxSurge: '10%', maxUnavailable: '10%' }))).toEqual(['rollout-strategy spec.updateStrategy.rollingUpdate.maxSurge']);
    expect(refused(daemonSet({ maxUnavailable: 0 }))).toEqual(['rollout-strategy spec.updateStrategy.rollingUpdate.maxUnavailable']);
    expect(refused(daemonSet({ maxSurge: '101%', maxUnavailable: 0 }))).toEqual(['rollout-strategy spec.updateStrategy.rollingUpdate.maxSurge']);
    expect(refused(daemonSet({ maxUnavailable: -1 }))).toEqual(['rollout-strategy spec.updateStrategy.rollingUpdate.maxUnavailable']);
    expect(refused(
      workload('DaemonSet', {}),
      daemonSet(null),
      daemonSet({ maxSurge: 1, maxUnavailable: 0 }),
      daemonSet({ maxSurge: '100%', maxUnavailable: 0 }),
      daemonSet({ maxUnavailable: '33%' }),
      daemonSet({ maxSurge: 5, maxUnavailable: 5 }, 'OnDelete'), // OnDelete: nothing more is checked
    )).toEqual([]);
  });

  test('StatefulSet: no rollingUpdate under OnDelete', () => {
    expect(refused(workload('StatefulSet', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }))).toEqual(['rollout-strategy spec.updateStrategy.rollingUpdate']);
    expect(refused(
      workload('StatefulSet', { updateStrategy: { type: 'OnDelete' } }),
      workload('StatefulSet', { updateStrategy: { rollingUpdate: { partition: 1 } } }),
      workload('StatefulSet', { podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate' } }),
    )).toEqual([]);
  });
});

describe('cronjob-schedule', () => {
  test.each([
    '*/5 * * * *', '0 0 * * 0', '30 2 * * 1-5', '0 9 1,15 JAN-MAR mon-fri', '0 0 ? * SUN', '5/15 * * * *', '0 */2 * * *', '  0 0 * * *  ',
    '@daily', '@midnight', '@hourly', '@weekly', '@monthly', '@yearly', '@annually', '@every 1h30m', '@every 90s', '@every 0', '@every 1.5h',
  ])('takes %j', (schedule) => {
    expect(cronScheduleProblem(schedule)).toBeUndefined();
    expect(refused(workload('CronJob', { schedule }))).toEqual([]);
  });

  test.each([
    ['* * * *', /4 fields/], ['* * * * * *', /6 fields/], ['0 0 * * 7', /day of week.*ends above 6/], ['60 * * * *', /minute.*above 59/],
    ['0 24 * * *', /hour/], ['0 0 0 * *', /day of month.*below 1/], ['0 0 * 13 *', /month/], ['*/0 * * * *', /step.*is 0/],
    ['5-1 * * * *', /starts after it ends/], ['0 0 L * *', /not a number/], ['0 0 * * MON-', /not a number/], ['1-2-3 * * * *', /too many hyphens/],
    ['*/5/2 * * * *', /too many slashes/], ['CRON_TZ=UTC 0 * * * *', /spec\.timeZone/], ['TZ=Europe/Berlin @daily', /time zone/],
    ['@fortnightly', /not one of/], ['@every', /not one of/], ['@every 5', /not a duration/], ['@daily ', /not one of/], [' @daily', /1 field/],
  ])('refuses %j', (schedule, why) => {
    expect(cronScheduleProblem(schedule)).toMatch(why);
    expect(refused(workload('CronJob', { schedule }))).toEqual(['cronjob-schedule spec.schedule']);
  });

  test('timeZone: empty, Local and non-IANA forms refused; absent or a zone name accepted', () => {
    for (const tz of ['', 'Local', 'local', '../etc', 'Europe/-Berlin', 'America/Argentina_Buenos_Aires_X']) {
      expect([tz, timeZoneProblem(tz)]).toEqual([tz, expect.any(String)]);
      expect(refused(workload('CronJob', { timeZone: tz }))).toEqual(['cronjob-schedule spec.timeZone']);
    }
    for (const tz of ['Etc/UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) expect(timeZoneProblem(tz)).toBeUndefined();
  });
});

describe('job-indexed', () => {
  test('per-index fields need completionMode: Indexed (NonIndexed when left out)', () => {
    expect(refused(workload('Job', { backoffLimitPerIndex: 1, maxFailedIndexes: 1, completions: 3 }))).toEqual(['job-indexed spec.backoffLimitPerIndex', 'job-indexed spec.maxFailedIndexes']);
    expect(refused(workload('Job', { completionMode: 'NonIndexed', successPolicy: { rules: [{ succeededCount: 1 }] } }))).toEqual(['job-indexed spec.successPolicy']);
    expect(refused(workload('Job', { completionMode: 'Indexed', completions: 3, maxFailedIndexes: 1 }))).toEqual(['job-indexed spec.backoffLimitPerIndex']);
  });

  test('an Indexed Job: completions when parallelism is set, parallelism and maxFailedIndexes capped', () => {
    expect(refused(workload('Job', { completionMode: 'Indexed', parallelism: 2 }))).toEqual(['job-indexed spec.completions']);
    expect(refused(workload('Job', { completionMode: 'Indexed', completions: 200_000, parallelism: 100_001 }))).toEqual(['job-indexed spec.parallelism']);
    expect(refused(workload('Job', { completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1, maxFailedIndexes: 4 }))).toEqual(['job-indexed spec.maxFailedIndexes']);
    expect(refused(workload('CronJob', { jobTemplate: { spec: { template: jobTemplate, completionMode: 'Indexed', parallelism: 2 } } }))).toEqual(['job-indexed spec.jobTemplate.spec.completions']);
  });

  test('accepted: both counts left out (both default to 1), a complete Indexed Job', () => {
    expect(refused(
      workload('Job', { completionMode: 'Indexed' }),
      workload('Job', { completionMode: 'Indexed', completions: 5, parallelism: 100_000, backoffLimitPerIndex: 1, maxFailedIndexes: 5, successPolicy: { rules: [{ succeededCount: 1 }] } }),
      workload('Job', { parallelism: 2 }),
    )).toEqual([]);
  });
});

describe('workload-restart-policy', () => {
  const withPod = (kind: string, pod: Obj) => {
    const o = workload(kind, {});
    const spec = kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec.template.spec;
    Object.assign(spec, pod);
    if (pod.restartPolicy === undefined) delete spec.restartPolicy;
    return o;
  };

  test('a Job\'s pods end: OnFailure or Never, and the pod default (Always) is refused', () => {
    expect(refused(withPod('Job', {}))).toEqual(['workload-restart-policy spec.template.spec.restartPolicy']);
    expect(refused(withPod('Job', { restartPolicy: 'Always' }))).toEqual(['workload-restart-policy spec.template.spec.restartPolicy']);
    expect(refused(withPod('CronJob', {}))).toEqual(['workload-restart-policy spec.jobTemplate.spec.template.spec.restartPolicy']);
    const failurePolicy = workload('Job', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } });
    failurePolicy.spec.template.spec.restartPolicy = 'OnFailure';
    expect(refused(failurePolicy)).toEqual(['workload-restart-policy spec.template.spec.restartPolicy']);
    expect(refused(withPod('Job', { restartPolicy: 'OnFailure' }), withPod('CronJob', { restartPolicy: 'Never' }))).toEqual([]);
  });

  test.each(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'])('%s: Always or left out; no activeDeadlineSeconds', (kind) => {
    expect(refused(withPod(kind, { restartPolicy: 'Never' }))).toEqual(['workload-restart-policy spec.template.spec.restartPolicy']);
    expect(refused(withPod(kind, { restartPolicy: 'OnFailure', activeDeadlineSeconds: 60 })))
      .toEqual(['workload-restart-policy spec.template.spec.restartPolicy', 'workload-restart-policy spec.template.spec.activeDeadlineSeconds']);
    expect(refused(withPod(kind, {}), withPod(kind, { restartPolicy: 'Always' }))).toEqual([]);
  });
});

describe('which objects are judged', () => {
  test('v1 List items count, named by their place in the list', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [workload('Deployment', {}), workload('Deployment', { replicas: -1 }), workload('CronJob', { schedule: '* * *' })] };
    const found = validateManifests([list]).filter((v) => RULES.includes(v.rule));
    expect(found.map((v) => `${v.rule} ${v.field}`)).toEqual(['workload-counts items[1].spec.replicas', 'cronjob-schedule items[2].spec.schedule']);
    expect(found[0].fix).toBe('set items[1].spec.replicas to 0 or more, or leave it out for its default');
  });

  test('other API versions and kinds are not judged: their validation differs', () => {
    expect(refused(
      { ...workload('Deployment', { replicas: -1 }), apiVersion: 'extensions/v1beta1' },
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'md' }, spec: { replicas: -1 } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'no-spec' } },
    )).toEqual([]);
  });
});

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');

(existsSync(BIN) ? describe : describe.skip)('validate', () => {
  test('reports replicas: -1 at its line with the rule; the schema alone passes it', () => {
    const yaml = [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', '  namespace: apps', 'spec:', '  replicas: -1',
      '  selector:', '    matchLabels: {app: web}', '  template:', '    metadata:', '      labels: {app: web}', '    spec:',
      '      nodeSelector: {kubernetes.io/os: linux}', '      containers:', '      - {name: web, image: "nginx:1.27"}', '',
    ].join('\n');
    const r = spawnSync(process.execPath, [BIN, 'validate', '-'], { input: yaml, encoding: 'utf8', cwd: ROOT });
    expect(r.stdout.split('\n').filter((l) => l !== '')).toEqual([
      '<stdin>:7:3 Deployment apps/web: spec.replicas: -1 is negative, which the API server refuses. Fix: set spec.replicas to 0 or more, or leave it out for its default. [workload-counts]',
    ]);
    expect(r.status).toBe(1);
    const suppressed = yaml.replace('  namespace: apps', '  namespace: apps\n  annotations: {ignore-rule.cdk-hybrid-windows.io/workload-counts: "scaled by hand"}');
    expect(spawnSync(process.execPath, [BIN, 'validate', '-'], { input: suppressed, encoding: 'utf8', cwd: ROOT }).status).toBe(0);
  });
});
