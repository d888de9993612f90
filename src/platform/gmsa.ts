/**
 * The windows-gmsa API (kubernetes-sigs/windows-gmsa v0.13.0, admission-webhook/types.go and
 * charts/gmsa/crds/crds.yaml): the cluster-scoped `GMSACredentialSpec` kind in `windows.k8s.io`,
 * and the verb the webhook's LocalSubjectAccessReview asks a pod's service account for.
 */
export const GMSA_GROUP = 'windows.k8s.io';
/** The kind of a credential spec. */
export const GMSA_KIND = 'GMSACredentialSpec';
/** Its resource (plural) in RBAC rules. */
export const GMSA_RESOURCE = 'gmsacredentialspecs';
/** The verb a service account needs on the spec its pods name (admission-webhook/kube_client.go, isAuthorizedToUseCredSpec). */
export const GMSA_USE_VERB = 'use';

/**
 * The forms of a credential spec's `DomainJoinConfig` and `GroupManagedServiceAccounts` that
 * Windows reads (what `New-CredentialSpec`, from the CredentialSpec PowerShell module, prints for a
 * domain): a GUID in its registry form, the domain's SID, NetBIOS names of at most 15 characters.
 * Another form is accepted by the CRD (every field is a plain string) and by the webhook, and the
 * container then gets no domain identity.
 */
export const GMSA_FORMS = {
  /** [MS-DTYP] 2.3.4.3 GUID: 8-4-4-4-12 hexadecimal digits, braces optional. */
  guid: /^\{?[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}\}?$/,
  /** A domain's SID ([MS-DTYP] 2.4.2.1 SID string format; 2.4.2.4: domain SIDs are `S-1-5-21-` and three sub-authorities). */
  domainSid: /^S-1-5-21(?:-\d{1,10}){3}$/,
  /**
   * NetBIOS names (the domain's, and the gMSA's account name, its sAMAccountName without `$`): 1 to
   * 15 characters, none of `\ / : * ? " < > |` (Microsoft Learn, "Naming conventions in Active Directory
   * for computers, domains, sites, and OUs").
   */
  netBiosName: /^[^\\/:*?"<>|]{1,15}$/,
  /** The gMSA's name in a credential spec: its sAMAccountName without the trailing `$` (a NetBIOS name). */
  accountName: /^[^\\/:*?"<>|]{0,14}[^\\/:*?"<>|$]$/,
  /** A DNS domain name: labels of letters, digits and `-`, joined by dots. */
  dnsName: /^(?=.{1,253}$)[A-Za-z0-9](?:[-A-Za-z0-9]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/,
} as const;
