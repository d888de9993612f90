/**
 * The one module of the EKS path that imports cdktf itself (provider resources are imported one
 * by one where they are used). A move to CDK Terrain (`cdktn`) changes this line only.
 */
export { App, TerraformStack, Token, dependable } from 'cdktf';
