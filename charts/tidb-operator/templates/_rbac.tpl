{{/*
The controller's permissions: exactly the resources and verbs its code uses. Kept in one place so
cluster-scoped (ClusterRole) and namespace-scoped (Role per watched namespace) installs match.
*/}}
{{- define "tidb-operator.controller.rules" -}}
- apiGroups: ["pingcap.com"]
  resources: ["tidbclusters"]
  verbs: ["get", "list", "watch", "patch", "update"]
- apiGroups: ["pingcap.com"]
  resources: ["tidbclusters/status"]
  verbs: ["get", "patch", "update"]
- apiGroups: [""]
  resources: ["services", "configmaps", "serviceaccounts"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: ["apps"]
  resources: ["statefulsets", "deployments"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get", "list", "watch"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end }}

{{- define "tidb-operator.controller.leaderElectionRules" -}}
- apiGroups: ["coordination.k8s.io"]
  resources: ["leases"]
  verbs: ["create"]
- apiGroups: ["coordination.k8s.io"]
  resources: ["leases"]
  resourceNames: [{{ include "tidb-operator.controller.fullname" . | quote }}]
  verbs: ["get", "update", "patch"]
{{- end }}

{{/* The webhook's certificate bootstrap: its Secret, and the caBundle of its two configurations. */}}
{{- define "tidb-operator.webhook.secretRules" -}}
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["create"]
- apiGroups: [""]
  resources: ["secrets"]
  resourceNames: [{{ include "tidb-operator.webhook.secretName" . | quote }}]
  verbs: ["get", "update"]
{{- end }}

{{- define "tidb-operator.webhook.configurationRules" -}}
- apiGroups: ["admissionregistration.k8s.io"]
  resources: ["validatingwebhookconfigurations", "mutatingwebhookconfigurations"]
  resourceNames: [{{ include "tidb-operator.webhook.configurationName" . | quote }}]
  verbs: ["get", "patch"]
{{- end }}
