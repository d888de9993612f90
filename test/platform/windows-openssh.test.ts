import { App, Chart } from 'cdk8s';
import { WINDOWS_OPENSSH_KEY_TYPES, windowsOpenSshKeyProblem } from '../../src/platform/windows-openssh';
import { ACCEPTED_KEYS, DSA_KEY } from '../support/openssh-keys';

// What Win32-OpenSSH's sshd reads from an authorized_keys line (PowerShell/openssh-portable
// v9.8.1.0: sshkey.c sshkey_read and sshkey_from_blob_internal, openbsd-compat/base64.c b64_pton,
// myproposal.h KEX_DEFAULT_PK_ALG).

const str = (b: Buffer | string) => { const l = Buffer.alloc(4); l.writeUInt32BE(Buffer.from(b).length); return Buffer.concat([l, Buffer.from(b)]); };
const line = (type: string, ...fields: (Buffer | string)[]) => `${type} ${Buffer.concat(fields.map(str)).toString('base64')} ops@example`;
const bodyOf = (key: string) => Buffer.from(key.split(' ')[1], 'base64');
const what = (key: string) => windowsOpenSshKeyProblem(key)?.what;

describe('the public-key lines Windows OpenSSH takes', () => {
  test('one line of each accepted type, as ssh-keygen writes it, passes; the fixture has one of each', () => {
    expect(Object.keys(ACCEPTED_KEYS).sort()).toEqual([...WINDOWS_OPENSSH_KEY_TYPES].sort());
    for (const key of Object.values(ACCEPTED_KEYS)) expect(windowsOpenSshKeyProblem(key)).toBeUndefined();
  });

  test('as sshd splits a line: spaces or tabs around the key, with or without a comment, any comment', () => {
    const key = ACCEPTED_KEYS['ssh-ed25519'];
    const [type, body] = key.split(' ');
    for (const variant of [`${type} ${body}`, `${type}\t${body}\tops`, `  ${type}   ${body}  two words: and # more`, `${type} ${body} `]) {
      expect(windowsOpenSshKeyProblem(variant)).toBeUndefined();
    }
  });

  test('DSA is refused by name, with a fix that makes a key of a type sshd takes', () => {
    expect(windowsOpenSshKeyProblem(DSA_KEY)).toEqual({
      what: 'is a DSA key, which Windows OpenSSH refuses (not among sshd\'s accepted key types, and not built in from Win32-OpenSSH v9.8.1.0)',
      fix: 'make a key of a type Windows OpenSSH takes (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com), e.g. `ssh-keygen -t ed25519`, and give the line of its .pub file',
    });
  });

  test('other types are refused: unknown, certificates, signature-only names', () => {
    const body = ACCEPTED_KEYS['ssh-rsa'].split(' ')[1];
    for (const type of ['ssh-ed448', 'ssh-ed25519-cert-v01@openssh.com', 'rsa-sha2-256', 'RSA', 'ssh-dss-cert-v01@openssh.com']) {
      expect(what(`${type} ${body}`)).toBe(`names the key type "${type}", which Windows OpenSSH does not take`);
    }
  });

  test('what is no key line at all: a private key, a lone type, a line break, nothing', () => {
    for (const text of ['-----BEGIN OPENSSH PRIVATE KEY-----', 'ssh-ed25519', `${ACCEPTED_KEYS['ssh-ed25519']}\nssh-rsa AAAA`, `${ACCEPTED_KEYS['ssh-ed25519']}\r`, '']) {
      expect(what(text)).toBe('is not one OpenSSH public key line (type, Base64 key, optional comment)');
    }
  });

  test('a body b64_pton refuses: cut short, unpadded, padded in the middle, bits after the last byte, URL-safe letters', () => {
    const [type, body, comment] = ACCEPTED_KEYS['sk-ssh-ed25519@openssh.com'].split(' ');
    expect(body.endsWith('=')).toBe(true);
    const notBase64 = 'has a key that is not Base64 as sshd decodes it (cut, altered, or padded wrongly)';
    for (const broken of [body.slice(0, -3), body.replace(/=+$/, ''), `AAAA=${body}`, body.replace(/o=$/, 'p='), body.replace(/\//g, '_'), `${body}==`]) {
      expect(what(`${type} ${broken} ${comment}`)).toBe(notBase64);
    }
  });

  test('a blob sshd refuses: cut at a whole quantum, bytes left over, another type\'s blob, the wrong curve, key length or modulus', () => {
    const ed = bodyOf(ACCEPTED_KEYS['ssh-ed25519']);
    const cut = ed.subarray(0, ed.length - 3);
    expect(what(`ssh-ed25519 ${cut.toString('base64')}`)).toBe('has a Base64 key that is not a ssh-ed25519 key blob');
    expect(what(`ssh-ed25519 ${Buffer.concat([ed, Buffer.from([0, 0, 0, 0])]).toString('base64')}`)).toBe('has a Base64 key that is not a ssh-ed25519 key blob');
    expect(what(`ssh-rsa ${bodyOf(ACCEPTED_KEYS['ecdsa-sha2-nistp256']).toString('base64')}`)).toBe('holds a key whose blob says "ecdsa-sha2-nistp256", not the ssh-rsa its line names');
    expect(what(`ecdsa-sha2-nistp384 ${bodyOf(ACCEPTED_KEYS['ecdsa-sha2-nistp256']).toString('base64')}`)).toBe('holds a key whose blob says "ecdsa-sha2-nistp256", not the ecdsa-sha2-nistp384 its line names');
    expect(what(line('ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp384', 'nistp256', Buffer.alloc(97, 4)))).toBe('has a ecdsa-sha2-nistp384 key blob sshd refuses (the wrong key length or curve)');
    expect(what(line('ssh-ed25519', 'ssh-ed25519', Buffer.alloc(31, 7)))).toBe('has a ssh-ed25519 key blob sshd refuses (the wrong key length or curve)');
    expect(what(line('sk-ssh-ed25519@openssh.com', 'sk-ssh-ed25519@openssh.com', Buffer.alloc(32, 7)))).toBe('has a Base64 key that is not a sk-ssh-ed25519@openssh.com key blob');
    // SSH_RSA_MINIMUM_MODULUS_SIZE is 1024 bits: a 1023-bit modulus is refused, 1024 bits pass.
    const modulus = (bits: number) => { const n = Buffer.alloc(Math.ceil(bits / 8) + 1, 0xab); n[0] = 0; n[1] = 0xff >> (8 - (bits % 8 || 8)); return n; };
    expect(what(line('ssh-rsa', 'ssh-rsa', Buffer.from([1, 0, 1]), modulus(1023)))).toBe('has a ssh-rsa key blob sshd refuses (a modulus under 1024 bits)');
    expect(what(line('ssh-rsa', 'ssh-rsa', Buffer.from([1, 0, 1]), modulus(1024)))).toBeUndefined();
  });
});

describe('one fact, read by both consumers of Windows OpenSSH keys', () => {
  /**
   * Loads the remote pool and the CAPZ pool on a fact that takes one more key type and no longer
   * takes ssh-ed25519: a consumer that checks keys on its own keeps the old answer.
   */
  function consumersOnAnotherFact() {
    const added = 'ssh-example@example.org';
    let consumers!: { remote: (key: string) => unknown; capz: (key: string) => unknown };
    jest.isolateModules(() => {
      jest.doMock('../../src/platform/windows-openssh', () => {
        const actual = jest.requireActual('../../src/platform/windows-openssh');
        return {
          ...actual,
          WINDOWS_OPENSSH_KEY_TYPES: [...actual.WINDOWS_OPENSSH_KEY_TYPES.filter((t: string) => t !== 'ssh-ed25519'), added],
          windowsOpenSshKeyProblem: (key: string) => {
            if (key.startsWith(`${added} `)) return undefined;
            return key.startsWith('ssh-ed25519 ') ? { what: 'is refused by this fact', fix: 'use another' } : actual.windowsOpenSshKeyProblem(key);
          },
        };
      });
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { RemoteHybridCluster, RemoteWindowsWorkerPool } = require('../../src/remote');
      const { CapzCluster, CapzCloudProviderInstall, CapzIdentityType, CapzWindowsWorkerPool, WindowsKubeletService } = require('../../src/capz');
      /* eslint-enable @typescript-eslint/no-require-imports */
      const chart = () => new Chart(new App(), 'c', { namespace: 'default', disableResourceNameHashes: true });
      const remoteCluster = new RemoteHybridCluster(chart(), 'edge', {
        k0sVersion: 'v1.34.4+k0s.0', controlPlaneEndpoint: { host: '10.0.0.10' },
        controlPlane: { hosts: [{ address: '10.0.0.11' }], sshKeySecret: 'linux-ssh-key' },
      });
      const remotePool = new RemoteWindowsWorkerPool(remoteCluster, 'win', { hosts: [{ address: '10.0.2.11' }], sshKeySecret: 'windows-ssh-key' });
      const capzCluster = new CapzCluster(chart(), 'demo', {
        kubernetesVersion: 'v1.34.4', location: 'westeurope', subscriptionId: '00000000-0000-0000-0000-000000000000',
        identity: { type: CapzIdentityType.WORKLOAD_IDENTITY, clientId: '11111111-1111-1111-1111-111111111111', tenantId: 't' },
        cloudProvider: CapzCloudProviderInstall.HELM_CHART_PROXY,
        machineIdentity: '/subscriptions/s/resourceGroups/ids/providers/Microsoft.ManagedIdentity/userAssignedIdentities/cloud-provider',
      });
      let n = 0;
      consumers = {
        remote: (key) => remotePool.hostPreparationScript({ publicKey: key }),
        capz: (key) => new CapzWindowsWorkerPool(capzCluster, `win${n++}`, { vmSize: 'Standard_D4s_v3', kubeletService: WindowsKubeletService.NSSM, sshAuthorizedKeys: [key] }),
      };
    });
    return { added, consumers };
  }

  test('a key type the fact adds is taken by both, and one it drops is refused by both, in the fact\'s words', () => {
    const { added, consumers } = consumersOnAnotherFact();
    const key = `${added} AAAAF3NzaC1leGFtcGxlQGV4YW1wbGUub3Jn ops`;
    expect(consumers.remote(key)).toContain(`$publicKey = '${key}'`);
    expect(() => consumers.capz(key)).not.toThrow();
    expect(() => consumers.remote(ACCEPTED_KEYS['ssh-ed25519'])).toThrow(/publicKey: .* is refused by this fact\. Fix: use another\.$/);
    expect(() => consumers.capz(ACCEPTED_KEYS['ssh-ed25519'])).toThrow(/sshAuthorizedKeys\[0\]: .* is refused by this fact\. Fix: use another\.$/);
  });
});
