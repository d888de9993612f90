import { App } from 'cdk8s';
import { buildRemoteCluster } from '../../examples/remote/main';
import { ACCEPTED_KEYS } from '../support/openssh-keys';
import { parsePowerShell } from '../support/powershell';
import { only, synthObjects } from '../support/synth';

describe('examples/remote', () => {
  const app = new App();
  const { windows } = buildRemoteCluster(app);
  const objects = synthObjects(app);

  test('three controllers, two Linux workers, two Windows workers on three hosts with a spare for rollouts', () => {
    expect(only(objects, 'K0sControlPlane').spec.replicas).toBe(3);
    expect(only(objects, 'MachineDeployment', 'edge-linux').spec.replicas).toBe(2);
    const win = only(objects, 'MachineDeployment', 'edge-win');
    expect(win.spec.replicas).toBe(2);
    expect(win.spec.rollout.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(objects.filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === 'edge-win')).toHaveLength(3);
  });

  test('the host preparation script it writes parses and opens windows_exporter\'s port', () => {
    const script = windows.hostPreparationScript({ publicKey: ACCEPTED_KEYS['ssh-ed25519'], additionalTcpPorts: [9182] });
    const { errors, commandTexts } = parsePowerShell(script);
    expect(errors).toEqual([]);
    expect(commandTexts.filter((t) => t.includes('-LocalPort 9182'))).toHaveLength(1);
  });
});
