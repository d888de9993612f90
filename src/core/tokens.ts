/**
 * Values resolved only at deploy time. cdktf renders an unresolved token as `${TfToken[TOKEN.n]}`
 * (cdktf `lib/tokens/private/encoding.ts`; an item of a list token as `#{TfToken[...]}`) and
 * cdk8s/aws-cdk as `${Token[...]}`: a format check
 * on such a string would refuse a valid input, so the value types skip them.
 */
const TOKEN = /[$#]\{(Tf)?Token\[/;

/** True when `value` is (or embeds) a token that is resolved only at deploy time. */
export function isUnresolvedToken(value: unknown): boolean {
  return typeof value === 'string' && TOKEN.test(value);
}
