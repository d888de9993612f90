import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { kplus } from './cdk8s-plus';
import { dropChartNamespace } from '../platform/cluster-scope';
import { optional, propsSpec, record, required, text, whole } from '../core/props-spec';
import { dnsLabelProblem } from '../platform/dns';
import { DNS1035_LABEL, DNS1123_SUBDOMAIN } from '../platform/object-meta';
import { LABEL_OS } from '../platform/windows';
import { GMSA_FORMS, GMSA_GROUP, GMSA_KIND, GMSA_RESOURCE } from '../platform/gmsa';

/**
 * The windows-gmsa release `GmsaWebhook` renders (kubernetes-sigs/windows-gmsa, chart `charts/gmsa`
 * 0.13.0, image v0.13.0): the chart says 0.13.0 from commit 17a688e (2025-03-14, "update references
 * to v0.13.0"), after the tag v0.13.0, whose `Chart.yaml` still says 0.12.1.
 */
export const GMSA_WEBHOOK_IMAGE = 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.13.0';

/** The port the webhook serves on (chart values `containerPort`; admission-webhook/main.go reads `HTTPS_PORT`). */
const WEBHOOK_PORT = 443;
const CERT_MANAGER = 'cert-manager.io/v1';

/** Props of `GmsaWebhook`. */
export interface GmsaWebhookProps {
  /**
   * Namespace of the webhook; it is created, and its own pods are exempt from the webhook.
   * @default 'gmsa-webhook'
   */
  readonly namespace?: string;
  /**
   * Name of the webhook's objects (the chart's release name).
   * @default 'gmsa-webhook'
   */
  readonly name?: string;
  /**
   * The webhook image.
   * @default GMSA_WEBHOOK_IMAGE
   */
  readonly image?: string;
  /**
   * Webhook replicas. With `failurePolicy: Fail`, no pod is admitted while none is ready.
   * @default 2
   */
  readonly replicas?: number;
}

/**
 * The spec of `GmsaWebhookProps`. The name is the webhook's Service's too (a DNS-1035 label).
 * @internal
 */
export const GMSA_WEBHOOK_PROPS = propsSpec<GmsaWebhookProps>('GmsaWebhook', {
  namespace: optional(text({ max: 63, form: 'a namespace name (a DNS label)', example: 'gmsa-webhook', problem: dnsLabelProblem })),
  name: optional(text({ max: 63, pattern: DNS1035_LABEL, form: 'a Service name (a DNS-1035 label)', example: 'gmsa-webhook' })),
  image: optional(text({ max: 512, form: 'an image reference', example: GMSA_WEBHOOK_IMAGE })),
  // With failurePolicy Fail, no pod is admitted while no replica is ready.
  replicas: optional(whole(1)),
});

/**
 * kubernetes-sigs/windows-gmsa's admission webhook as objects, following its chart 0.13.0
 * (`charts/gmsa`, with cert-manager): the `GMSACredentialSpec` CRD (`crds/crds.yaml`), the webhook's
 * ServiceAccount and the ClusterRole it needs (get and use the specs, create
 * LocalSubjectAccessReviews), a Deployment on Linux nodes (`kubernetes.io/os: linux` and `os.name:
 * linux`, as the chart's template), its Service, a self-signed CA and a serving certificate from
 * cert-manager (which must be installed), and the mutating and validating webhook configurations
 * whose CA bundle cert-manager injects. The mutating webhook writes a pod's credential spec
 * contents from the `GMSACredentialSpec` it names; the validating one refuses the pod unless its
 * service account may `use` that spec (`GmsaCredentialSpec.grant`).
 */
export class GmsaWebhook extends Construct {
  /** The webhook's namespace. */
  public readonly namespace: string;
  /** The webhook's Deployment. */
  public readonly deployment: ApiObject;
  /** The `GMSACredentialSpec` CustomResourceDefinition. */
  public readonly crd: ApiObject;

  public constructor(scope: Construct, id: string, given: GmsaWebhookProps = {}) {
    super(scope, id);
    const props = GMSA_WEBHOOK_PROPS.parse(this.node.path, given);
    const name = props.name ?? 'gmsa-webhook';
    const namespace = props.namespace ?? 'gmsa-webhook';
    const replicas = props.replicas ?? 2;
    this.namespace = namespace;
    const meta = (objectName: string) => ({ name: objectName, namespace });
    const clusterScoped = (obj: ApiObject) => {
      dropChartNamespace(obj);
      return obj;
    };

    // The built-in kinds are cdk8s-plus-33's classes generated from the Kubernetes OpenAPI schema
    // (kplus.k8s), so their fields are checked against it when this compiles.
    clusterScoped(new kplus.k8s.KubeNamespace(this, 'Namespace', { metadata: { name: namespace } }));
    this.crd = clusterScoped(new kplus.k8s.KubeCustomResourceDefinition(this, 'Crd', gmsaCrd()));

    new kplus.k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta(name) });
    const role = clusterScoped(new kplus.k8s.KubeClusterRole(this, 'ClusterRole', {
      metadata: { name },
      // admission-webhook/kube_client.go: retrieveCredSpecContents gets the spec,
      // isAuthorizedToUseCredSpec creates a LocalSubjectAccessReview.
      rules: [
        { apiGroups: [GMSA_GROUP], resources: [GMSA_RESOURCE], verbs: ['get', 'use'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
      ],
    }));
    clusterScoped(new kplus.k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
      metadata: { name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.name },
    }));

    const certSecret = `${name}-cert`;
    const caName = `${name}-ca`;
    // cert-manager: a self-signed ClusterIssuer signs the CA certificate, an Issuer of that CA signs
    // the serving certificate, and cainjector copies the CA into the webhook configurations
    // (`cert-manager.io/inject-ca-from`), as the chart's templates/issuer.yaml.
    clusterScoped(new ApiObject(this, 'SelfSigned', { apiVersion: CERT_MANAGER, kind: 'ClusterIssuer', metadata: { name: caName }, spec: { selfSigned: {} } }));
    new ApiObject(this, 'CaCertificate', {
      apiVersion: CERT_MANAGER, kind: 'Certificate', metadata: meta(caName),
      spec: { isCA: true, commonName: caName, secretName: `${name}-root-ca`, issuerRef: { name: caName, kind: 'ClusterIssuer', group: 'cert-manager.io' } },
    });
    new ApiObject(this, 'Issuer', { apiVersion: CERT_MANAGER, kind: 'Issuer', metadata: meta(name), spec: { ca: { secretName: `${name}-root-ca` } } });
    new ApiObject(this, 'Certificate', {
      apiVersion: CERT_MANAGER, kind: 'Certificate', metadata: meta(name),
      spec: {
        // The API server calls the Service by its in-cluster names.
        dnsNames: [`${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`],
        issuerRef: { kind: 'Issuer', name },
        secretName: certSecret,
      },
    });

    const labels = { app: name };
    this.deployment = new kplus.k8s.KubeDeployment(this, 'Deployment', {
      metadata: meta(name),
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: name,
            // The webhook is a Linux image (the chart pins it the same way).
            nodeSelector: { [LABEL_OS]: 'linux' },
            os: { name: 'linux' },
            containers: [{
              name,
              image: props.image ?? GMSA_WEBHOOK_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              readinessProbe: { httpGet: { scheme: 'HTTPS', path: '/health', port: kplus.k8s.IntOrString.fromNumber(WEBHOOK_PORT) } },
              ports: [{ containerPort: WEBHOOK_PORT }],
              volumeMounts: [{ name: 'tls', mountPath: '/tls', readOnly: true }],
              // admission-webhook/main.go: TLS_CRT and TLS_KEY are required; HTTPS_PORT defaults to 443.
              env: [{ name: 'TLS_KEY', value: '/tls/key' }, { name: 'TLS_CRT', value: '/tls/crt' }, { name: 'HTTPS_PORT', value: String(WEBHOOK_PORT) }],
              resources: { requests: { cpu: kplus.k8s.Quantity.fromString('50m'), memory: kplus.k8s.Quantity.fromString('64Mi') } },
            }],
            volumes: [{ name: 'tls', secret: { secretName: certSecret, items: [{ key: 'tls.key', path: 'key' }, { key: 'tls.crt', path: 'crt' }] } }],
          },
        },
      },
    });
    new kplus.k8s.KubeService(this, 'Service', {
      metadata: meta(name),
      spec: { ports: [{ port: 443, targetPort: kplus.k8s.IntOrString.fromNumber(WEBHOOK_PORT) }], selector: labels },
    });

    const webhook = (path: string, operations: string[]): kplus.k8s.ValidatingWebhook => ({
      name: 'admission-webhook.windows-gmsa.sigs.k8s.io',
      clientConfig: { service: { name, namespace, path } },
      rules: [{ operations, apiGroups: [''], apiVersions: ['*'], resources: ['pods'] }],
      failurePolicy: 'Fail',
      admissionReviewVersions: ['v1', 'v1beta1'],
      sideEffects: 'None',
      // Never its own namespace (its pods could not start without it), nor one labelled off.
      namespaceSelector: { matchExpressions: [
        { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [namespace] },
        { key: 'windows.k8s.io/disabled', operator: 'NotIn', values: ['true'] },
      ] },
    });
    const injectCa = { 'cert-manager.io/inject-ca-from': `${namespace}/${caName}` };
    clusterScoped(new kplus.k8s.KubeMutatingWebhookConfiguration(this, 'Mutating', {
      metadata: { name, annotations: injectCa },
      webhooks: [webhook('/mutate', ['CREATE'])],
    }));
    clusterScoped(new kplus.k8s.KubeValidatingWebhookConfiguration(this, 'Validating', {
      metadata: { name, annotations: injectCa },
      webhooks: [webhook('/validate', ['CREATE', 'UPDATE'])],
    }));
  }
}

/** The domain a gMSA belongs to: the `DomainJoinConfig` of its credential spec (`New-CredentialSpec` writes it). */
export interface GmsaDomain {
  /** DNS name of the domain, e.g. `contoso.com`. */
  readonly dnsName: string;
  /**
   * DNS name of the forest root.
   * @default - dnsName
   */
  readonly dnsTreeName?: string;
  /** NetBIOS name of the domain, e.g. `CONTOSO`. */
  readonly netBiosName: string;
  /** GUID of the domain. */
  readonly guid: string;
  /** SID of the domain, e.g. `S-1-5-21-...`. */
  readonly sid: string;
}

/**
 * How a node that is not domain-joined retrieves the gMSA's password: the Container Credential
 * Guard plugin and its input (`HostAccountConfig`). On EKS, the Amazon ECS/EKS credential-spec
 * plugin reads a domain user's credentials from AWS Secrets Manager or SSM.
 */
export interface GmsaHostAccountConfig {
  /** The CCG plugin's GUID, without braces (e.g. AWS's plugin: `859E1386-BDB4-49E8-85C7-3070B13920E1`). */
  readonly pluginGuid: string;
  /** The plugin's input, in its own format (AWS's: JSON naming the secret and the domain user). */
  readonly pluginInput: string;
  /**
   * The CCG version.
   * @default '1'
   */
  readonly portableCcgVersion?: string;
}

/** Props of `GmsaCredentialSpec`. */
export interface GmsaCredentialSpecProps {
  /** Name of the `GMSACredentialSpec` (cluster-scoped); pods name it in `gmsaCredentialSpecName`. */
  readonly name: string;
  /** The gMSA's account name, e.g. `WebApp1`. */
  readonly account: string;
  /** The domain of the gMSA. */
  readonly domain: GmsaDomain;
  /**
   * For nodes that are not domain-joined ("domainless"): how they retrieve the gMSA's password.
   * @default - none: the Windows nodes must be joined to the domain
   */
  readonly hostAccountConfig?: GmsaHostAccountConfig;
}

const GUID = { max: 38, pattern: GMSA_FORMS.guid, form: 'a GUID (8-4-4-4-12 hexadecimal digits)' };
const DNS_NAME = { max: 253, pattern: GMSA_FORMS.dnsName, form: 'a DNS domain name' };

/**
 * The spec of `GmsaCredentialSpecProps`: the credential spec's props in the forms Windows reads
 * (`GMSA_FORMS`), before anything is written: a form the CRD takes as a plain string, and the
 * container would get no domain identity.
 * @internal
 */
export const GMSA_CREDENTIAL_SPEC_PROPS = propsSpec<GmsaCredentialSpecProps>('GmsaCredentialSpec', {
  name: required(text({ max: 253, pattern: DNS1123_SUBDOMAIN, form: 'a DNS subdomain name, which a GMSACredentialSpec\'s name must be', fix: 'use lower-case letters, digits, - and .' }),
    'give the GMSACredentialSpec\'s name, e.g. webapp1'),
  account: required(text({
    max: 15, form: 'a gMSA account name (its sAMAccountName without $: 1 to 15 characters, none of \\ / : * ? " < > |)', example: 'WebApp1',
    problem: (account) => GMSA_FORMS.accountName.test(account) ? undefined : {
      what: 'is not a gMSA account name (its sAMAccountName without $: 1 to 15 characters, none of \\ / : * ? " < > |)',
      fix: account.endsWith('$') ? `write it without the trailing $: "${account.slice(0, -1)}"` : 'give the gMSA\'s name as New-CredentialSpec -AccountName takes it, e.g. WebApp1',
    },
  }), 'give the gMSA\'s name as New-CredentialSpec -AccountName takes it, e.g. WebApp1'),
  domain: required(record(propsSpec<GmsaDomain>('GmsaDomain', {
    dnsName: required(text({ ...DNS_NAME, fix: 'give the domain\'s DNS name, e.g. contoso.com' }), 'give the domain\'s DNS name, e.g. contoso.com'),
    dnsTreeName: optional(text({ ...DNS_NAME, fix: 'give the forest root\'s DNS name, or leave it unset for dnsName' })),
    netBiosName: required(text({
      max: 15, pattern: GMSA_FORMS.netBiosName, form: 'a NetBIOS domain name (1 to 15 characters, none of \\ / : * ? " < > |)',
      fix: 'give the domain\'s NetBIOS name, e.g. CONTOSO (New-CredentialSpec prints it as NetBiosName)',
    }), 'give the domain\'s NetBIOS name, e.g. CONTOSO (New-CredentialSpec prints it as NetBiosName)'),
    guid: required(text({ ...GUID, fix: 'give the domain\'s objectGUID, e.g. 244818ae-87ca-4fcd-92ec-e79e5252348a (New-CredentialSpec prints it as Guid)' }),
      'give the domain\'s objectGUID, e.g. 244818ae-87ca-4fcd-92ec-e79e5252348a (New-CredentialSpec prints it as Guid)'),
    sid: required(text({
      max: 64, form: 'a domain SID (S-1-5-21- and three numbers)', example: 'S-1-5-21-2126729477-2524075714-3094792973',
      problem: (sid) => GMSA_FORMS.domainSid.test(sid) ? undefined : {
        what: 'is not a domain SID (S-1-5-21- and three numbers)',
        fix: /^S-1-5-21(?:-\d+){4,}$/.test(sid) ? `give the domain's SID without the account's RID: "${sid.replace(/-\d+$/, '')}"` : 'give the domain\'s SID, e.g. S-1-5-21-2126729477-2524075714-3094792973 (New-CredentialSpec prints it as Sid)',
      },
    }), 'give the domain\'s SID, e.g. S-1-5-21-2126729477-2524075714-3094792973 (New-CredentialSpec prints it as Sid)'),
  })), 'give the DomainJoinConfig New-CredentialSpec prints for the gMSA\'s domain'),
  hostAccountConfig: optional(record(propsSpec<GmsaHostAccountConfig>('GmsaHostAccountConfig', {
    pluginGuid: required(text({ ...GUID, fix: 'give the CCG plugin\'s GUID, e.g. AWS\'s 859E1386-BDB4-49E8-85C7-3070B13920E1' }), 'give the CCG plugin\'s GUID, e.g. AWS\'s 859E1386-BDB4-49E8-85C7-3070B13920E1'),
    // The plugin's own format (AWS's: JSON, which may span lines).
    pluginInput: required(text({ max: 64 * 1024, multiline: true, form: 'the plugin\'s input', fix: 'give the input in the plugin\'s format, e.g. AWS\'s JSON {"credentialArn": "arn:aws:secretsmanager:…"}' }),
      'give the input in the plugin\'s format, e.g. AWS\'s JSON {"credentialArn": "arn:aws:secretsmanager:…"}'),
    portableCcgVersion: optional(text({ max: 16, form: 'a CCG version', example: '1' })),
  }))),
});

/**
 * A `GMSACredentialSpec` (windows.k8s.io/v1) as the chart's templates/credentialspec.yaml writes
 * it, and a ClusterRole that allows `use` of it, which `grant` binds to service accounts: the
 * windows-gmsa webhook admits a pod only when its service account may `use` the spec it names.
 */
export class GmsaCredentialSpec extends Construct {
  /** The spec's name. */
  public readonly name: string;
  /** The ClusterRole allowing `use` of this one spec. */
  public readonly role: ApiObject;

  public constructor(scope: Construct, id: string, given: GmsaCredentialSpecProps) {
    super(scope, id);
    const props = GMSA_CREDENTIAL_SPEC_PROPS.parse(this.node.path, given);
    this.name = props.name;
    const { domain: d, hostAccountConfig: host } = props;
    const spec = new ApiObject(this, 'Spec', {
      apiVersion: `${GMSA_GROUP}/v1`, kind: GMSA_KIND, metadata: { name: props.name },
      credspec: {
        ActiveDirectoryConfig: {
          GroupManagedServiceAccounts: [{ Name: props.account, Scope: d.netBiosName }, { Name: props.account, Scope: d.dnsName }],
          ...(host ? { HostAccountConfig: { PortableCcgVersion: host.portableCcgVersion ?? '1', PluginGUID: `{${host.pluginGuid.replace(/^\{|\}$/g, '')}}`, PluginInput: host.pluginInput } } : {}),
        },
        CmsPlugins: ['ActiveDirectory'],
        DomainJoinConfig: { DnsName: d.dnsName, DnsTreeName: d.dnsTreeName ?? d.dnsName, Guid: d.guid, MachineAccountName: props.account, NetBiosName: d.netBiosName, Sid: d.sid },
      },
    });
    dropChartNamespace(spec);
    this.role = new kplus.k8s.KubeClusterRole(this, 'UseRole', {
      metadata: { name: `gmsa-use-${props.name}` },
      rules: [{ apiGroups: [GMSA_GROUP], resources: [GMSA_RESOURCE], verbs: ['use'], resourceNames: [props.name] }],
    });
    dropChartNamespace(this.role);
  }

  /**
   * Lets `serviceAccount` in `namespace` use the spec: a RoleBinding of the spec's ClusterRole in
   * that namespace (the webhook asks with a LocalSubjectAccessReview there).
   */
  public grant(id: string, serviceAccount: string, namespace: string): ApiObject {
    return new kplus.k8s.KubeRoleBinding(this, id, {
      metadata: { name: `gmsa-use-${this.name}-${serviceAccount}`.slice(0, 253), namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: this.role.name },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
    });
  }
}

/** The GMSACredentialSpec CRD of windows-gmsa chart 0.13.0 (commit 17a688e, `charts/gmsa/crds/crds.yaml`): v1 stored, v1alpha1 served and deprecated. */
function gmsaCrd(): kplus.k8s.KubeCustomResourceDefinitionProps {
  const strings = (...keys: string[]): kplus.k8s.JsonSchemaProps => ({ type: 'object', properties: Object.fromEntries(keys.map((k) => [k, { type: 'string' }])) });
  const schema: kplus.k8s.CustomResourceValidation = {
    openApiv3Schema: {
      type: 'object',
      properties: {
        credspec: {
          description: 'GMSA Credential Spec',
          type: 'object',
          properties: {
            ActiveDirectoryConfig: {
              type: 'object',
              properties: {
                GroupManagedServiceAccounts: { type: 'array', items: strings('Name', 'Scope') },
                HostAccountConfig: strings('PluginGUID', 'PluginInput', 'PortableCcgVersion'),
              },
            },
            CmsPlugins: { type: 'array', items: { type: 'string' } },
            DomainJoinConfig: strings('DnsName', 'DnsTreeName', 'Guid', 'MachineAccountName', 'NetBiosName', 'Sid'),
          },
        },
      },
    },
  };
  return {
    metadata: { name: `${GMSA_RESOURCE}.${GMSA_GROUP}`, annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/tree/master/keps/sig-windows/689-windows-gmsa' } },
    spec: {
      group: GMSA_GROUP,
      versions: [
        { name: 'v1alpha1', served: true, storage: false, deprecated: true, schema },
        { name: 'v1', served: true, storage: true, schema },
      ],
      conversion: { strategy: 'None' },
      names: { kind: GMSA_KIND, plural: GMSA_RESOURCE },
      scope: 'Cluster',
    },
  };
}
