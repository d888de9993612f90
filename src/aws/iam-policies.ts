/**
 * The IAM policy documents `clusterawsadm bootstrap iam` creates for a non-EKS cluster, as plain
 * data (docs/aws-iam.md explains each group). Actions are always listed one by one: no `*`, no
 * `ec2:Describe*`. Two resources are narrower than clusterawsadm's: the control plane may only
 * create the load balancer service-linked role, and the controllers may only pass the cluster's
 * own control-plane and nodes roles.
 */

/** @internal */
export const IAM_POLICY_VERSION = '2012-10-17';

/** @internal */
export interface PolicyStatement {
  readonly Effect: 'Allow';
  readonly Action: readonly string[];
  readonly Resource: readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** @internal */
export interface PolicyDocument {
  readonly Version: typeof IAM_POLICY_VERSION;
  readonly Statement: readonly PolicyStatement[];
}

/**
 * The secrets CAPA writes machine bootstrap data to (its `aws.cluster.x-k8s.io/` prefix).
 * @internal
 */
export function bootstrapSecretsArn(partition: string): string {
  return `arn:${partition}:secretsmanager:*:*:secret:aws.cluster.x-k8s.io/*`;
}

const ANY = ['*'];

/**
 * The AWS cloud controller manager on control-plane machines (cloud-provider-aws).
 * @internal
 */
export function controlPlanePolicy(partition: string): PolicyDocument {
  return document([
    {
      Effect: 'Allow',
      Resource: ANY,
      Action: [
        // Find the cluster's instances, network and node groups.
        'autoscaling:DescribeAutoScalingGroups',
        'autoscaling:DescribeLaunchConfigurations',
        'autoscaling:DescribeTags',
        'ec2:DescribeInstances',
        'ec2:DescribeImages',
        'ec2:DescribeRegions',
        'ec2:DescribeRouteTables',
        'ec2:DescribeSecurityGroups',
        'ec2:DescribeSubnets',
        'ec2:DescribeVolumes',
        'ec2:DescribeVpcs',
        // Node addresses and routes.
        'ec2:AssignIpv6Addresses',
        'ec2:CreateRoute',
        'ec2:DeleteRoute',
        'ec2:ModifyInstanceAttribute',
        // Security groups for Service type=LoadBalancer.
        'ec2:CreateSecurityGroup',
        'ec2:DeleteSecurityGroup',
        'ec2:AuthorizeSecurityGroupIngress',
        'ec2:RevokeSecurityGroupIngress',
        'ec2:CreateTags',
        // In-tree/legacy EBS volume handling.
        'ec2:CreateVolume',
        'ec2:ModifyVolume',
        'ec2:AttachVolume',
        'ec2:DetachVolume',
        'ec2:DeleteVolume',
        'kms:DescribeKey',
        // Classic and network load balancers for Services.
        ...CLOUD_PROVIDER_ELB_ACTIONS,
      ],
    },
    serviceLinkedRole(partition, 'elasticloadbalancing.amazonaws.com', 'AWSServiceRoleForElasticLoadBalancing'),
  ]);
}

const CLOUD_PROVIDER_ELB_ACTIONS = [
  'elasticloadbalancing:AddTags',
  'elasticloadbalancing:ApplySecurityGroupsToLoadBalancer',
  'elasticloadbalancing:AttachLoadBalancerToSubnets',
  'elasticloadbalancing:ConfigureHealthCheck',
  'elasticloadbalancing:CreateListener',
  'elasticloadbalancing:CreateLoadBalancer',
  'elasticloadbalancing:CreateLoadBalancerListeners',
  'elasticloadbalancing:CreateLoadBalancerPolicy',
  'elasticloadbalancing:CreateTargetGroup',
  'elasticloadbalancing:DeleteListener',
  'elasticloadbalancing:DeleteLoadBalancer',
  'elasticloadbalancing:DeleteLoadBalancerListeners',
  'elasticloadbalancing:DeleteTargetGroup',
  'elasticloadbalancing:DeregisterInstancesFromLoadBalancer',
  'elasticloadbalancing:DescribeListeners',
  'elasticloadbalancing:DescribeLoadBalancerAttributes',
  'elasticloadbalancing:DescribeLoadBalancerPolicies',
  'elasticloadbalancing:DescribeLoadBalancers',
  'elasticloadbalancing:DescribeTargetGroups',
  'elasticloadbalancing:DescribeTargetHealth',
  'elasticloadbalancing:DetachLoadBalancerFromSubnets',
  'elasticloadbalancing:ModifyListener',
  'elasticloadbalancing:ModifyLoadBalancerAttributes',
  'elasticloadbalancing:ModifyTargetGroup',
  'elasticloadbalancing:RegisterInstancesWithLoadBalancer',
  'elasticloadbalancing:RegisterTargets',
  'elasticloadbalancing:SetLoadBalancerPoliciesForBackendServer',
  'elasticloadbalancing:SetLoadBalancerPoliciesOfListener',
];

/**
 * Every machine, Linux and Windows: kubelet/cloud-provider lookups, bootstrap data, SSM agent.
 * @internal
 */
export function nodesPolicy(partition: string): PolicyDocument {
  return document([
    {
      Effect: 'Allow',
      Resource: ANY,
      Action: [
        // The kubelet's cloud provider reads its own instance, zone and network interfaces.
        'ec2:DescribeInstances',
        'ec2:DescribeRegions',
        'ec2:DescribeTags',
        'ec2:DescribeNetworkInterfaces',
        'ec2:DescribeInstanceTypes',
        'ec2:CreateTags',
        'ec2:AssignIpv6Addresses',
        // Pull images from ECR.
        'ecr:GetAuthorizationToken',
        'ecr:BatchCheckLayerAvailability',
        'ecr:GetDownloadUrlForLayer',
        'ecr:GetRepositoryPolicy',
        'ecr:DescribeRepositories',
        'ecr:ListImages',
        'ecr:BatchGetImage',
      ],
    },
    {
      // Read, then delete, the machine's own bootstrap data; nothing else in Secrets Manager.
      Effect: 'Allow',
      Resource: [bootstrapSecretsArn(partition)],
      Action: ['secretsmanager:DeleteSecret', 'secretsmanager:GetSecretValue'],
    },
    {
      // SSM Session Manager instead of open SSH/RDP ports.
      Effect: 'Allow',
      Resource: ANY,
      Action: [
        'ssm:UpdateInstanceInformation',
        'ssmmessages:CreateControlChannel',
        'ssmmessages:CreateDataChannel',
        'ssmmessages:OpenControlChannel',
        'ssmmessages:OpenDataChannel',
        's3:GetEncryptionConfiguration',
      ],
    },
  ]);
}

/**
 * The CAPA controllers. `passRoleArns` are the roles of the instance profiles CAPA may give the
 * machines it launches.
 * @internal
 */
export function controllersPolicy(partition: string, passRoleArns: readonly string[]): PolicyDocument {
  return document([
    {
      Effect: 'Allow',
      Resource: ANY,
      Action: [
        // Network reconciliation (CAPA only reads a bring-your-own network, but keeps the code path).
        'ec2:AllocateAddress',
        'ec2:AssociateRouteTable',
        'ec2:AttachInternetGateway',
        'ec2:CreateEgressOnlyInternetGateway',
        'ec2:CreateInternetGateway',
        'ec2:CreateNatGateway',
        'ec2:CreateRoute',
        'ec2:CreateRouteTable',
        'ec2:CreateSubnet',
        'ec2:CreateVpc',
        'ec2:DeleteEgressOnlyInternetGateway',
        'ec2:DeleteInternetGateway',
        'ec2:DeleteNatGateway',
        'ec2:DeleteRouteTable',
        'ec2:DeleteSubnet',
        'ec2:DeleteVpc',
        'ec2:DetachInternetGateway',
        'ec2:DisassociateAddress',
        'ec2:DisassociateRouteTable',
        'ec2:ModifySubnetAttribute',
        'ec2:ModifyVpcAttribute',
        'ec2:ReleaseAddress',
        'ec2:ReplaceRoute',
        // Cluster security groups.
        'ec2:AuthorizeSecurityGroupIngress',
        'ec2:CreateSecurityGroup',
        'ec2:DeleteSecurityGroup',
        'ec2:RevokeSecurityGroupIngress',
        // Machines: instances, their interfaces and launch templates.
        'ec2:AssignIpv6Addresses',
        'ec2:AssignPrivateIpAddresses',
        'ec2:AttachNetworkInterface',
        'ec2:CreateLaunchTemplate',
        'ec2:CreateLaunchTemplateVersion',
        'ec2:CreateNetworkInterface',
        'ec2:DeleteLaunchTemplate',
        'ec2:DeleteLaunchTemplateVersions',
        'ec2:DetachNetworkInterface',
        'ec2:ModifyInstanceAttribute',
        'ec2:ModifyNetworkInterfaceAttribute',
        'ec2:RunInstances',
        'ec2:TerminateInstances',
        'ec2:UnassignPrivateIpAddresses',
        // Ownership tags.
        'ec2:CreateTags',
        'ec2:DeleteTags',
        'tag:GetResources',
        // Reads.
        'ec2:DescribeAccountAttributes',
        'ec2:DescribeAddresses',
        'ec2:DescribeAvailabilityZones',
        'ec2:DescribeEgressOnlyInternetGateways',
        'ec2:DescribeImages',
        'ec2:DescribeInstanceTypes',
        'ec2:DescribeInstances',
        'ec2:DescribeInternetGateways',
        'ec2:DescribeKeyPairs',
        'ec2:DescribeLaunchTemplateVersions',
        'ec2:DescribeLaunchTemplates',
        'ec2:DescribeNatGateways',
        'ec2:DescribeNetworkInterfaceAttribute',
        'ec2:DescribeNetworkInterfaces',
        'ec2:DescribeRouteTables',
        'ec2:DescribeSecurityGroups',
        'ec2:DescribeSubnets',
        'ec2:DescribeTags',
        'ec2:DescribeVolumes',
        'ec2:DescribeVpcAttribute',
        'ec2:DescribeVpcs',
        // The API server's classic load balancer.
        'elasticloadbalancing:AddTags',
        'elasticloadbalancing:ApplySecurityGroupsToLoadBalancer',
        'elasticloadbalancing:ConfigureHealthCheck',
        'elasticloadbalancing:CreateLoadBalancer',
        'elasticloadbalancing:DeleteLoadBalancer',
        'elasticloadbalancing:DeleteTargetGroup',
        'elasticloadbalancing:DeregisterInstancesFromLoadBalancer',
        'elasticloadbalancing:DescribeLoadBalancerAttributes',
        'elasticloadbalancing:DescribeLoadBalancers',
        'elasticloadbalancing:DescribeTags',
        'elasticloadbalancing:ModifyLoadBalancerAttributes',
        'elasticloadbalancing:RegisterInstancesWithLoadBalancer',
        'elasticloadbalancing:RemoveTags',
        // MachinePools.
        'autoscaling:DescribeAutoScalingGroups',
        'autoscaling:DescribeInstanceRefreshes',
      ],
    },
    {
      Effect: 'Allow',
      Resource: [`arn:${partition}:autoscaling:*:*:autoScalingGroup:*:autoScalingGroupName/*`],
      Action: [
        'autoscaling:CreateAutoScalingGroup',
        'autoscaling:UpdateAutoScalingGroup',
        'autoscaling:CreateOrUpdateTags',
        'autoscaling:StartInstanceRefresh',
        'autoscaling:DeleteAutoScalingGroup',
        'autoscaling:DeleteTags',
      ],
    },
    serviceLinkedRole(partition, 'autoscaling.amazonaws.com', 'AWSServiceRoleForAutoScaling'),
    serviceLinkedRole(partition, 'elasticloadbalancing.amazonaws.com', 'AWSServiceRoleForElasticLoadBalancing'),
    serviceLinkedRole(partition, 'spot.amazonaws.com', 'AWSServiceRoleForEC2Spot'),
    { Effect: 'Allow', Resource: passRoleArns, Action: ['iam:PassRole'] },
    {
      // Write machine bootstrap data that the machine itself reads and deletes.
      Effect: 'Allow',
      Resource: [bootstrapSecretsArn(partition)],
      Action: ['secretsmanager:CreateSecret', 'secretsmanager:DeleteSecret', 'secretsmanager:TagResource'],
    },
  ]);
}

function serviceLinkedRole(partition: string, service: string, roleName: string): PolicyStatement {
  return {
    Effect: 'Allow',
    Resource: [`arn:${partition}:iam::*:role/aws-service-role/${service}/${roleName}`],
    Action: ['iam:CreateServiceLinkedRole'],
    Condition: { StringLike: { 'iam:AWSServiceName': service } },
  };
}

function document(statements: PolicyStatement[]): PolicyDocument {
  return { Version: IAM_POLICY_VERSION, Statement: statements };
}
