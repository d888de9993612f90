/**
 * Windows OpenSSH (Win32-OpenSSH, PowerShell/openssh-portable): the public-key lines its sshd takes
 * from an authorized_keys file. Two constructs hand it keys: the remote hosts' preparation script
 * (`administrators_authorized_keys`) and the CAPZ Windows pool's `sshAuthorizedKeys`, which
 * cloudbase-init's users plugin writes line by line, unchecked, into the user's
 * `.ssh/authorized_keys` (cloudbase/cloudbase-init 1.1.8
 * cloudbaseinit/plugins/common/userdataplugins/cloudconfigplugins/users.py, _set_ssh_public_keys).
 *
 * sshd reads a line with sshkey_read (openssh-portable v9.8.1.0 sshkey.c): a key type it knows,
 * spaces or tabs, a Base64 blob (b64_pton, openbsd-compat/base64.c: whole quantums, `=` padding only
 * at the end, zero bits after the last byte), then anything as the comment; the blob's own type name
 * must be the one the line names, and sshkey_from_blob_internal refuses bytes left over.
 */

/** How the blob of one key type is laid out: SSH strings (uint32 length, then the bytes). */
interface KeyBlob {
  /** The strings after the type name: sshd refuses fewer or more (trailing bytes). */
  readonly fields: number;
  /** An Ed25519 key's length (ssh-ed25519.c, ssh_ed25519_deserialize_public: ED25519_PK_SZ). */
  readonly keyBytes?: number;
  /** An ECDSA key's curve, the first string after the name (ssh-ecdsa.c: SSH_ERR_EC_CURVE_MISMATCH). */
  readonly curve?: string;
  /** An RSA modulus's fewest bits (sshkey.c sshkey_check_rsa_length: SSH_RSA_MINIMUM_MODULUS_SIZE). */
  readonly minModulusBits?: number;
}

/**
 * The key types Win32-OpenSSH's sshd accepts by default (myproposal.h KEX_DEFAULT_PK_ALG, which
 * servconf.c makes PubkeyAcceptedAlgorithms; `ssh-rsa` keys sign with rsa-sha2-256/512), with their
 * blobs. The security-key types need v8.9.0.0 or later (contrib/win32/openssh/config.h.vs
 * `ENABLE_SK`); an older sshd does not know them. DSA (`ssh-dss`) is in no default list (myproposal.h
 * of v8.1.0.0 to v9.8.1.0), and from v9.8.1.0 it is not built at all (sshkey.c keeps
 * sshkey_dss_impl under `WITH_DSA`, which config.h.vs never defines).
 */
const KEY_BLOBS: Readonly<Record<string, KeyBlob>> = {
  'ssh-ed25519': { fields: 1, keyBytes: 32 },
  'ssh-rsa': { fields: 2, minModulusBits: 1024 },
  'ecdsa-sha2-nistp256': { fields: 2, curve: 'nistp256' },
  'ecdsa-sha2-nistp384': { fields: 2, curve: 'nistp384' },
  'ecdsa-sha2-nistp521': { fields: 2, curve: 'nistp521' },
  // A security key's blob ends with its application string (sshkey.c, sshkey_deserialize_sk).
  'sk-ssh-ed25519@openssh.com': { fields: 2, keyBytes: 32 },
  'sk-ecdsa-sha2-nistp256@openssh.com': { fields: 3, curve: 'nistp256' },
};

/** The key types a public-key line for Windows OpenSSH may name, as `ssh-keygen` writes them. */
export const WINDOWS_OPENSSH_KEY_TYPES: readonly string[] = Object.keys(KEY_BLOBS);

const TYPES_TEXT = WINDOWS_OPENSSH_KEY_TYPES.join(', ');
const NEW_KEY = `make a key of a type Windows OpenSSH takes (${TYPES_TEXT}), e.g. \`ssh-keygen -t ed25519\`, and give the line of its .pub file`;
const WHOLE_LINE = 'give the whole line of the key\'s .pub file, as ssh-keygen wrote it';
// A type is a name of letters, digits, - . @ (as ssh-keygen writes them); a PEM header is none.
const LINE = /^[ \t]*([A-Za-z0-9][A-Za-z0-9.@-]*)[ \t]+([^ \t\r\n]+)(?:[ \t][^\r\n]*)?$/;

/**
 * Why `line` is not a public-key line that Windows OpenSSH takes, with the fix, or undefined when it
 * is one. `what` follows the value it speaks of ("<value> is a DSA key, ...").
 */
export function windowsOpenSshKeyProblem(line: string): { readonly what: string; readonly fix: string } | undefined {
  const parts = LINE.exec(line);
  if (!parts) return { what: `is not one OpenSSH public key line (type, Base64 key, optional comment)`, fix: WHOLE_LINE };
  const [, type, body] = parts;
  if (type === 'ssh-dss') {
    return { what: 'is a DSA key, which Windows OpenSSH refuses (not among sshd\'s accepted key types, and not built in from Win32-OpenSSH v9.8.1.0)', fix: NEW_KEY };
  }
  const blob = Object.prototype.hasOwnProperty.call(KEY_BLOBS, type) ? KEY_BLOBS[type] : undefined;
  if (!blob) return { what: `names the key type "${type}", which Windows OpenSSH does not take`, fix: NEW_KEY };
  const bytes = Buffer.from(body, 'base64');
  // Node decodes leniently; sshd's b64_pton takes only what re-encodes to the same text.
  if (bytes.toString('base64') !== body) return { what: 'has a key that is not Base64 as sshd decodes it (cut, altered, or padded wrongly)', fix: WHOLE_LINE };
  const strings = sshStrings(bytes);
  if (!strings || strings.length !== blob.fields + 1) return { what: `has a Base64 key that is not a ${type} key blob`, fix: WHOLE_LINE };
  const inner = strings[0].toString('latin1');
  if (inner !== type) return { what: `holds a key whose blob says "${inner}", not the ${type} its line names`, fix: WHOLE_LINE };
  const valid = (blob.keyBytes === undefined || strings[1].length === blob.keyBytes)
    && (blob.curve === undefined || strings[1].toString('latin1') === blob.curve)
    && (blob.minModulusBits === undefined || bitLength(strings[2]) >= blob.minModulusBits);
  return valid ? undefined : { what: `has a ${type} key blob sshd refuses (${blob.minModulusBits ? `a modulus under ${blob.minModulusBits} bits` : 'the wrong key length or curve'})`, fix: WHOLE_LINE };
}

/** The SSH strings the blob is made of, or undefined when a length runs past its end. */
function sshStrings(bytes: Buffer): Buffer[] | undefined {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    if (at + 4 > bytes.length) return undefined;
    const end = at + 4 + bytes.readUInt32BE(at);
    if (end > bytes.length) return undefined;
    out.push(bytes.subarray(at + 4, end));
    at = end;
  }
  return out;
}

/** The bits of an mpint's magnitude (OpenSSL's BN_num_bits). */
function bitLength(mpint: Buffer): number {
  const first = mpint.findIndex((b) => b !== 0);
  return first < 0 ? 0 : (mpint.length - first - 1) * 8 + (32 - Math.clz32(mpint[first]));
}
