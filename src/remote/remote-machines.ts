import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { PooledRemoteMachine, RemoteMachineTemplate } from '../generated/k0smotron-infrastructure.cluster.x-k8s.io';
import { contentHash } from '../core/hash';
import { typedApiObject } from '../core/typed-api-object';
import { dnsLabelProblem } from '../platform/dns';
import { list, optional, PropEntry, propsSpec, record, required, text, whole } from '../core/props-spec';
import { REMOTE_MACHINE_DEFAULTS } from '../platform/remote';

/** A host k0smotron reaches over SSH. */
export interface RemoteHost {
  /** IP address or DNS name. */
  readonly address: string;
  /**
   * SSH port.
   * @default 22
   */
  readonly port?: number;
}

/** How k0smotron logs in to a set of hosts. */
export interface RemoteAccessProps {
  /**
   * The hosts, one machine each. A host belongs to one pool: k0smotron hands the first free one
   * (by PooledRemoteMachine name) to each new machine of the pool.
   */
  readonly hosts: RemoteHost[];
  /**
   * Name of the Secret, in the namespace of the cluster's objects, that holds the SSH private key
   * (OpenSSH format) under the key `value` (k0smotron remote_machine_controller.go, getSSHKey).
   */
  readonly sshKeySecret: string;
}

/** An address rig can dial: an IP address or a DNS name, without a port of its own (the `remote-hosts` rule judges what no machine can reach). */
export const REMOTE_ADDRESS = /^[A-Za-z0-9][A-Za-z0-9.:-]*$/;

/**
 * The spec of `RemoteHost`.
 * @internal
 */
export const REMOTE_HOST_PROPS = propsSpec<RemoteHost>('RemoteHost', {
  address: required(text({ max: 253, pattern: REMOTE_ADDRESS, form: 'an IP address or DNS name', example: '10.0.0.11' }), 'give the host\'s IP address or DNS name, e.g. `address: \'10.0.0.11\'`'),
  port: optional(whole(1, 65535)),
});

/**
 * The spec entries of `RemoteAccessProps`, which the controllers' and every remote pool's spec
 * spread: hosts listed once each (by address, case aside, and port), and a Secret's name.
 * @internal
 */
export const REMOTE_ACCESS_OPTIONS: { readonly [K in keyof RemoteAccessProps]-?: PropEntry } = {
  hosts: required(list(record(REMOTE_HOST_PROPS), { min: 1, unique: (host) => `${host.address.toLowerCase()}:${host.port ?? REMOTE_MACHINE_DEFAULTS.port}` }),
    'list the hosts k0smotron reaches over SSH, e.g. `hosts: [{ address: \'10.0.0.11\' }]`'),
  sshKeySecret: required(text({ max: 253, form: 'a Secret name', example: 'ssh-key', problem: secretNameProblem }), 'name the Secret that holds the private key under the key `value`'),
};

/** What the RemoteMachines of one pool are: the OS-specific part of each host's PooledRemoteMachine. */
export interface RemoteMachineSettings {
  readonly user: string;
  readonly useSudo?: boolean;
  readonly commandsAsScript?: boolean;
  readonly cleanUpCommands?: string[];
}

/** CAPI's rolling-update limits for a MachineDeployment. */
export interface Rollout {
  readonly maxSurge: number;
  readonly maxUnavailable: number;
}

/**
 * The rollout of `replicas` machines on `hosts` fixed hosts: CAPI's default (one machine more,
 * none fewer: cluster-api v1.14 core/webhooks/admission/machinedeployment.go) while a spare host
 * is listed, else one machine fewer and none more, so that a rollout frees a host before it
 * needs one. A machine that finds no free host waits for one (k0smotron
 * remote_machine_controller.go, ErrPooledMachineNotFound), and with maxUnavailable 0 CAPI never
 * deletes an old machine to free one.
 */
export function fixedHostRollout(replicas: number, hosts: number): Rollout {
  return hosts > replicas ? { maxSurge: 1, maxUnavailable: 0 } : { maxSurge: 0, maxUnavailable: 1 };
}

/** A Secret's name is a DNS subdomain: labels joined by dots (253 characters at most: the spec's). */
function secretNameProblem(name: string): string | undefined {
  return name.split('.').map((label) => dnsLabelProblem(label)).find((p) => p !== undefined);
}

/** A PooledRemoteMachine's name: the pool's, then the host's address (and port when not 22). */
function pooledName(pool: string, host: RemoteHost): string {
  const address = host.address.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
  return `${pool}-${address}${host.port !== undefined && host.port !== REMOTE_MACHINE_DEFAULTS.port ? `-${host.port}` : ''}`;
}

/**
 * The machines of one pool of fixed hosts: a PooledRemoteMachine per host and the
 * RemoteMachineTemplate (named after its content) whose machines take them. `spec.pool` is the
 * pool's full name: k0smotron matches pools by that name within the namespace, across clusters.
 */
export class RemoteMachines {
  /** The hosts. */
  public readonly hosts: readonly RemoteHost[];

  /** @param access the hosts and the key's Secret, as the owner's spec parsed them (`REMOTE_ACCESS_OPTIONS`). */
  public constructor(private readonly access: RemoteAccessProps, private readonly settings: RemoteMachineSettings) {
    this.hosts = access.hosts;
  }

  /**
   * Writes, as children of `scope`, the pool's PooledRemoteMachines and its RemoteMachineTemplate,
   * and returns the template.
   */
  public machineTemplate(scope: Construct, pool: string): ApiObject {
    for (const host of this.hosts) {
      typedApiObject(scope, `PooledRemoteMachine-${host.address}-${host.port ?? REMOTE_MACHINE_DEFAULTS.port}`, PooledRemoteMachine, {
        metadata: { name: pooledName(pool, host) },
        spec: {
          pool,
          machine: {
            address: host.address,
            port: host.port ?? REMOTE_MACHINE_DEFAULTS.port,
            user: this.settings.user,
            useSudo: this.settings.useSudo,
            commandsAsScript: this.settings.commandsAsScript,
            // workingDir is left out: the SSH provisioner reads it only with commandsAsScript
            // (ssh_provisioner.go, Provision), to place k0s_install.sh.
            cleanUpCommands: this.settings.cleanUpCommands,
            sshKeyRef: { name: this.access.sshKeySecret },
          },
        },
      });
    }
    // The template says only which pool its machines come from; what a host is, is in the
    // PooledRemoteMachines, which k0smotron copies into each RemoteMachine when it reserves one
    // (remote_machine_controller.go, reservePooledMachineAndPopulateRemoteMachine).
    const spec = { pool };
    const written = RemoteMachineTemplate.manifest({ spec: { template: { spec } } }).spec.template.spec;
    return typedApiObject(scope, 'RemoteMachineTemplate', RemoteMachineTemplate, {
      metadata: { name: `${pool}-${contentHash(written)}` },
      spec: { template: { spec } },
    });
  }

  /** The rollout that never needs a host beyond those listed. */
  public rollout(replicas: number): Rollout {
    return fixedHostRollout(replicas, this.hosts.length);
  }
}
