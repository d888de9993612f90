import { EKS_WINDOWS_2025_PROVIDER, admitsVersionAtLeast } from '../../src/platform/provider-version';

describe('admitsVersionAtLeast: whether a Terraform version constraint lets terraform init pick 6.32.0 or newer', () => {
  test.each([
    ['6.25.0', false],
    ['= 6.32.0', true],
    ['6.32', true],
    ['v6.40.1', true],
    ['<= 6.31.9', false],
    ['< 6.32.0', false],
    ['< 6.32.1', true],
    ['~> 6.31.0', false], // 6.31.x
    ['~> 6.32.0', true],
    ['~> 6.25', true], // 6.x
    ['~> 5.0', false],
    ['~> 6', true],
    ['>= 5.0, < 6.30', false],
    ['>= 6.0, < 7.0', true],
    ['!= 6.25.0', true],
    ['>= 7.0.0-beta1', true],
  ] as const)('%s → %s', (constraint, expected) => {
    expect(admitsVersionAtLeast(constraint, EKS_WINDOWS_2025_PROVIDER)).toBe(expected);
  });

  test('a constraint it cannot read claims nothing', () => {
    expect(admitsVersionAtLeast('latest', EKS_WINDOWS_2025_PROVIDER)).toBeUndefined();
    expect(admitsVersionAtLeast('>= 6.0,', EKS_WINDOWS_2025_PROVIDER)).toBeUndefined();
  });
});
