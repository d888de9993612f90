import { AWS_PARTITIONS } from '../generated/aws-partitions';
import { isUnresolvedToken } from '../core/tokens';

/**
 * Identifiers of AWS resources, checked for form before anything is written. Unresolved tokens
 * (values known only at deploy time) pass unchecked.
 */

// ami- followed by 8 (older) or 17 hex digits: EC2 resource ids (docs.aws.amazon.com AWSEC2 "Resource IDs").
const AMI_ID = /^ami-([0-9a-f]{8}|[0-9a-f]{17})$/;

/** Why `id` is not an AMI id (`ami-0123456789abcdef0`), or undefined. */
export function amiIdProblem(id: unknown): string | undefined {
  if (isUnresolvedToken(id)) return undefined;
  return typeof id === 'string' && AMI_ID.test(id) ? undefined : `AMI "${String(id)}" is not an AMI id (ami- and 8 or 17 lower-case hex digits)`;
}

/** The AWS partitions this library names: the ids of AWS's partition data. */
export type AwsPartitionId = 'aws' | 'aws-cn' | 'aws-us-gov' | 'aws-eusc' | 'aws-iso' | 'aws-iso-b' | 'aws-iso-e' | 'aws-iso-f';

const PARTITIONS = AWS_PARTITIONS.map((p) => ({ id: p.id, pattern: new RegExp(p.regionRegex), regions: new Set(p.regions) }));

/**
 * An AWS region name (`eu-north-1`, `us-gov-west-1`, `cn-north-1`, `eusc-de-east-1`) and its
 * partition, from AWS's own partition data (src/generated/aws-partitions.ts): a region AWS lists,
 * or a name of a partition's region pattern (so regions opened after the data was generated pass).
 */
export class AwsRegion {
  /** The region, or why `text` is not one (an availability zone is named as such). */
  public static parse(text: unknown): AwsRegion | string {
    if (typeof text === 'string') {
      const known = PARTITIONS.find((p) => p.regions.has(text)) ?? PARTITIONS.find((p) => p.pattern.test(text));
      if (known) return new AwsRegion(text, known.id as AwsPartitionId);
      const zone = AvailabilityZone.parse(text);
      if (typeof zone !== 'string') return `region "${text}" is an availability zone of ${zone.region}, not a region`;
    }
    return `region "${String(text)}" is not an AWS region name like eu-north-1`;
  }

  /** Why `text` is not a region name, or undefined (also for a deploy-time token). */
  public static problem(text: unknown): string | undefined {
    if (isUnresolvedToken(text)) return undefined;
    const region = AwsRegion.parse(text);
    return typeof region === 'string' ? region : undefined;
  }

  private constructor(
    /** The region's name. */
    public readonly name: string,
    /** The partition it belongs to (`aws`, `aws-us-gov`, `aws-cn`, ...). */
    public readonly partition: AwsPartitionId,
  ) {}

  /** The region's name. */
  public toString(): string {
    return this.name;
  }
}

// A zone is its region and a letter (eu-north-1a); local zones add a location and a letter
// (us-west-2-lax-1a), Wavelength zones a carrier location (us-east-1-wl1-bos-wlz-1).
const ZONE = /^(.*?-\d+)([a-z]|-[a-z0-9]+-\d+[a-z]?|-wl1-[a-z0-9-]+)$/;

/** An availability zone (or local or Wavelength zone) name and its region. */
export class AvailabilityZone {
  /** The zone, or why `text` is not a zone name. */
  public static parse(text: unknown): AvailabilityZone | string {
    const m = typeof text === 'string' ? ZONE.exec(text) : null;
    const region = m ? AwsRegion.parse(m[1]) : undefined;
    return m && region instanceof AwsRegion
      ? new AvailabilityZone(text as string, region, m[2].replace(/^-/, ''))
      : `availability zone "${String(text)}" is not a zone name like eu-north-1a`;
  }

  /** Why `text` is not a zone of `region` (any region when absent), or undefined; tokens pass. */
  public static problem(text: unknown, region?: string): string | undefined {
    if (isUnresolvedToken(text) || (region !== undefined && isUnresolvedToken(region))) return undefined;
    const zone = AvailabilityZone.parse(text);
    if (typeof zone === 'string') return zone;
    if (region !== undefined && zone.region.name !== region) return `availability zone "${zone.name}" is in ${zone.region}, not in ${region}`;
    return undefined;
  }

  private constructor(
    /** The zone's name, e.g. `eu-north-1a`. */
    public readonly name: string,
    /** The region it is in. */
    public readonly region: AwsRegion,
    /** What follows the region's name, without a leading "-": `a`, `lax-1a`. */
    public readonly suffix: string,
  ) {}

  /** The zone's name. */
  public toString(): string {
    return this.name;
  }
}

// CAPA's webhook accepts "" (no key) and names of printable ASCII that neither start nor end with
// a space (cluster-api-provider-aws v2.11.1 webhooks/sshkeyname.go, sshKeyValidNameRegex); EC2
// allows up to 255 characters.
const KEY_PAIR_NAME = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/** Why `name` is not an EC2 key pair name CAPA accepts, or undefined. */
export function keyPairNameProblem(name: unknown): string | undefined {
  if (isUnresolvedToken(name)) return undefined;
  return typeof name === 'string' && name.length <= 255 && KEY_PAIR_NAME.test(name) ? undefined
    : `key pair name ${JSON.stringify(name)} is not 1 to 255 printable ASCII characters without a space at either end`;
}

/** The key types EC2 imports (EC2 User Guide, "Create a key pair": RSA and ED25519). */
export enum KeyPairType {
  /** RSA: the type Windows machines need. */
  RSA = 'rsa',
  /** ED25519: EC2 refuses to launch Windows AMIs with it. */
  ED25519 = 'ed25519',
}

/** The type of an OpenSSH public key (`ssh-rsa AAAA...`), or undefined for anything else. */
export function keyPairTypeOf(publicKey: string): KeyPairType | undefined {
  const m = /^ssh-(rsa|ed25519) [A-Za-z0-9+/]+={0,3}( .*)?$/.exec(publicKey.trim());
  return m ? (m[1] as KeyPairType) : undefined;
}

/**
 * EC2 refuses to launch a Windows AMI with an ED25519 key pair ("ED25519 key pairs are not
 * supported for Windows instances", EC2 User Guide, "Create a key pair"): Windows encrypts its
 * Administrator password with the key, which only RSA can do.
 */
export const WINDOWS_ED25519_KEY = 'EC2 refuses to launch Windows AMIs with an ED25519 key pair (Windows encrypts its Administrator password to the key, which takes RSA)';

/** Most user tags CAPA accepts on one resource's `additionalTags`. */
export const MAX_AWS_USER_TAGS = 50;
// Go's regexp `\s` is ASCII [\t\n\f\r ] only, unlike JavaScript's.
const TAG_TEXT = /^[a-zA-Z0-9\t\n\f\r _.:=+\-@/]*$/;

/** The fix for every tag problem `awsTagProblems` finds. */
export const AWS_TAG_FIX = 'use keys of 1 to 128 and values of up to 256 letters, digits, spaces and _ . : / = + - @, no "aws:" prefix, at most 50 tags';

/**
 * Why a map of AWS tags is refused by CAPA's webhooks (AWSCluster, AWSMachine and
 * AWSMachineTemplate call `Tags.Validate`: cluster-api-provider-aws v2.11.1 api/v1beta2/tags.go),
 * one reason a line: keys of 1 to 128 and values of at most 256 characters, letters, digits,
 * spaces and `_ . : / = + - @` only, no key starting with the reserved `aws:`, at most 50 tags.
 * The same limits are AWS's own for tags on any resource (Tagging AWS Resources, "Tag naming
 * limits and requirements": 50 tags, 128 and 256 Unicode characters, the `aws:` prefix reserved,
 * and this character set as the one every service takes), so the Terraform side's provider
 * `default_tags` are judged by it too.
 */
export function awsTagProblems(tags: unknown): string[] {
  if (tags === undefined || tags === null) return [];
  if (typeof tags !== 'object' || Array.isArray(tags)) return [`tags ${JSON.stringify(tags)} are not a map of key to value`];
  const problems: string[] = [];
  const entries = Object.entries(tags as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (isUnresolvedToken(key) || isUnresolvedToken(value)) continue;
    if (typeof value !== 'string') problems.push(`tag ${key} has the value ${JSON.stringify(value)}, not a string`);
    if (key.length === 0) problems.push('a tag key is empty');
    if (Buffer.byteLength(key) > 128) problems.push(`tag key "${key}" is longer than 128 characters`);
    if (typeof value === 'string' && Buffer.byteLength(value) > 256) problems.push(`tag ${key} has a value longer than 256 characters`);
    if (key.startsWith('aws:')) problems.push(`tag key "${key}" starts with "aws:", which AWS reserves for its own tags`);
    if (!TAG_TEXT.test(key)) problems.push(`tag key "${key}" has characters other than letters, digits, spaces and _ . : / = + - @`);
    if (typeof value === 'string' && !TAG_TEXT.test(value)) problems.push(`tag ${key} has the value "${value}", with characters other than letters, digits, spaces and _ . : / = + - @`);
  }
  if (entries.length > MAX_AWS_USER_TAGS) problems.push(`${entries.length} tags, more than the ${MAX_AWS_USER_TAGS} AWS and CAPA accept on one resource`);
  return problems;
}

/**
 * EC2 user data, before base64: "User data is limited to 16 KB, in raw form, before it is
 * base64-encoded" (EC2 User Guide, instancedata-add-user-data).
 */
export const EC2_USER_DATA_MAX_BYTES = 16 * 1024;

/**
 * The days CloudWatch Logs keeps a log group's events (`retention_in_days`), 0 for ever:
 * PutRetentionPolicy's values (CloudWatch Logs API reference), as hashicorp/terraform-provider-aws
 * takes them (website/docs/r/cloudwatch_log_group.html.markdown, `retention_in_days`).
 */
export const CLOUDWATCH_LOG_RETENTION_DAYS = [0, 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

/**
 * IAM role names: 1 to 64 of letters, digits and `+=,.@_-` (IAM API Reference, CreateRole
 * `RoleName`, pattern `[\w+=,.@-]+`, length 1-64).
 */
export const IAM_ROLE_NAME = /^[\w+=,.@-]{1,64}$/;

/** Why a value is no IAM role name, for a message after the value. */
export function iamRoleNameProblem(value: unknown): string {
  if (typeof value !== 'string') return 'is not a string';
  if (value.length === 0) return 'is empty';
  if (value.length > 64) return `has ${value.length} characters, and IAM role names have at most 64 (IAM CreateRole)`;
  return 'is not an IAM role name: only letters, digits and +=,.@_- (IAM CreateRole)';
}
