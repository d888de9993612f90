/**
 * The hashicorp/aws release from which a Windows Server 2025 AMI type can pass the provider.
 *
 * `aws_eks_node_group` checks `ami_type` against the `AMITypes` enum of the AWS SDK for Go it was
 * built with (hashicorp/terraform-provider-aws `internal/service/eks/node_group.go`,
 * `enum.Validate[types.AMITypes]()`) and fails the plan with "expected ami_type to be one of"
 * otherwise (hashicorp/terraform-provider-aws#28438, the same for the 2022 types). The EKS API
 * gained `WINDOWS_{CORE,FULL}_2025_x86_64` on 2026-02-11 ("This release adds support for Windows
 * Server 2025 in Amazon EKS Managed Node Groups": boto/boto3 CHANGELOG.rst 1.42.47, the same
 * entry in the other AWS SDKs' changelogs). hashicorp/aws 6.25.0, which `@cdktf/provider-aws`
 * 21.22.1 pins, is of 2025-12-04 and 6.31.0 of early February 2026 (provider CHANGELOG.md):
 * both predate the enum. 6.32.0/6.32.1 (by 2026-02-13) are the first releases after it.
 */
export const EKS_WINDOWS_2025_PROVIDER: readonly [number, number, number] = [6, 32, 0];

/** A release that certainly carries the 2025 types (a week after the API change), for messages and docs. */
export const EKS_WINDOWS_2025_PROVIDER_ADVICE = '>= 6.33.0';

type Version = readonly [number, number, number];

const TERM = /^(=|!=|>=|<=|>|<|~>)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-[0-9A-Za-z.-]+)?$/;

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * Whether a Terraform version constraint (`6.25.0`, `>= 6.0, < 7.0`, `~> 6.25`; Terraform's
 * "Version Constraints" syntax) admits a version at or above `minimum`. Lower bounds and `!=` never
 * stop that; an exact version, `<`, `<=` and the upper end of `~>` may. Undefined when the
 * constraint cannot be read (a token, a typo): nothing is claimed then.
 */
export function admitsVersionAtLeast(constraint: string, minimum: Version): boolean | undefined {
  let admits = true;
  for (const raw of constraint.split(',')) {
    const m = TERM.exec(raw.trim());
    if (!m) return undefined;
    const [, op = '=', major, minor, patch] = m;
    const v: Version = [Number(major), Number(minor ?? 0), Number(patch ?? 0)];
    switch (op) {
      case '=':
      case '<=':
        admits &&= compare(v, minimum) >= 0;
        break;
      case '<':
        admits &&= compare(v, minimum) > 0;
        break;
      case '~>': {
        // ~> 6.25.0 allows 6.25.x, ~> 6.25 allows 6.x: the last given part may grow.
        const upper: Version = patch !== undefined ? [v[0], v[1] + 1, 0] : [v[0] + 1, 0, 0];
        admits &&= compare(upper, minimum) > 0;
        break;
      }
      default: // >, >=, != bound nothing from above
    }
  }
  return admits;
}
