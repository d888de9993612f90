import { isUnresolvedToken } from './tokens';

/**
 * Identifiers of AWS resources, checked for form before anything is written. Unresolved tokens
 * (values known only at deploy time) pass unchecked.
 */

// ami- followed by 8 (older) or 17 hex digits: EC2 resource ids (docs.aws.amazon.com AWSEC2 "Resource IDs").
const AMI_ID = /^ami-([0-9a-f]{8}|[0-9a-f]{17})$/;
// Partition-aware region names: us-east-1, eu-north-1, us-gov-west-1, cn-north-1, us-isob-east-1, ap-southeast-7.
const REGION = /^[a-z]{2}(-gov|-iso[a-z]?)?-(north|south|east|west|central|northeast|northwest|southeast|southwest)-\d{1,2}$/;
// An availability zone is its region plus a letter; local and wavelength zones add a location (us-west-2-lax-1a).
const ZONE = /^([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d{1,2})(?:[a-z]|-[a-z0-9]+-\d[a-z]?|-wl1-[a-z0-9-]+)$/;

/** Why `id` is not an AMI id (`ami-0123456789abcdef0`), or undefined. */
export function amiIdProblem(id: unknown): string | undefined {
  if (isUnresolvedToken(id)) return undefined;
  return typeof id === 'string' && AMI_ID.test(id) ? undefined : `AMI "${String(id)}" is not an AMI id (ami- and 8 or 17 lower-case hex digits)`;
}

/** Why `region` is not an AWS region name, or undefined. An availability zone is named as such. */
export function regionProblem(region: unknown): string | undefined {
  if (isUnresolvedToken(region)) return undefined;
  if (typeof region === 'string' && REGION.test(region)) return undefined;
  const zone = typeof region === 'string' ? ZONE.exec(region) : null;
  return zone
    ? `region "${region}" is an availability zone of ${zone[1]}, not a region`
    : `region "${String(region)}" is not an AWS region name like eu-north-1`;
}

/** The region of an availability zone name (`eu-north-1a` → `eu-north-1`), or undefined. */
export function zoneRegion(zone: string): string | undefined {
  return ZONE.exec(zone)?.[1];
}

/** Why `zone` is not an availability zone of `region`, or undefined. */
export function zoneProblem(zone: unknown, region?: string): string | undefined {
  if (isUnresolvedToken(zone) || (region !== undefined && isUnresolvedToken(region))) return undefined;
  const of = typeof zone === 'string' ? zoneRegion(zone) : undefined;
  if (!of) return `availability zone "${String(zone)}" is not a zone name like eu-north-1a`;
  if (region !== undefined && of !== region) return `availability zone "${zone}" is in ${of}, not in ${region}`;
  return undefined;
}

/**
 * EC2 user data, before base64: "User data is limited to 16 KB, in raw form, before it is
 * base64-encoded" (EC2 User Guide, instancedata-add-user-data).
 */
export const EC2_USER_DATA_MAX_BYTES = 16 * 1024;
