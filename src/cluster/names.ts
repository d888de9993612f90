import { createHash } from 'node:crypto';
import { DNS1123_LABEL } from '../platform/dns';


/**
 * Longest MachineDeployment name: CAPI appends a MachineSet hash and a Machine suffix, and the
 * Machine name must still fit the 63 characters of a label value (k0smotron labels each node
 * with its Machine's name).
 */
export const MAX_MACHINE_DEPLOYMENT_NAME = 45;

/** Windows truncates computer names to 15 characters (NetBIOS); Machine names must fit. */
export const WINDOWS_COMPUTER_NAME_MAX = 15;
/** Length of CAPI's `{{ .random }}` in `machineNaming.template`. */
export const CAPI_RANDOM_LENGTH = 5;

/** Why a name is not a DNS label of at most `max` characters, or undefined when it is one. */
export function dnsLabelProblem(name: string, max = 63): string | undefined {
  if (name.length > max) return `is ${name.length} characters long; the limit is ${max}`;
  if (!DNS1123_LABEL.test(name)) return 'must be lower-case letters, digits and "-", starting and ending with a letter or digit';
  return undefined;
}

/**
 * A short, stable digest of an object's content. Names built with it change when the content
 * does, which is how immutable templates (AWSMachineTemplate) roll out instead of being rejected.
 */
export function contentHash(content: unknown): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 8);
}
