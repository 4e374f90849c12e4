{{/*
The controller's permissions: exactly the resources and verbs its code uses. Kept in one place so
cluster-scoped (ClusterRole) and namespace-scoped (Role per watched namespace) installs match.
*/}}
{{- define "tidb-operator.controller.rules" -}}
# Reads TidbClusters (informer) and server-side applies their status subresource.
- apiGroups: ["pingcap.com"]
  resources: ["tidbclusters"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["pingcap.com"]
  resources: ["tidbclusters/status"]
  verbs: ["patch"]
# The objects a TidbCluster owns: watched through informers, written by server-side apply
# (a PATCH that creates the object when it is missing, hence create).
- apiGroups: [""]
  resources: ["services", "configmaps", "serviceaccounts"]
  verbs: ["get", "list", "watch", "create", "patch"]
- apiGroups: ["apps"]
  resources: ["statefulsets", "deployments"]
  verbs: ["get", "list", "watch", "create", "patch"]
# A suspended component's StatefulSet (spec.suspendAction.suspendStatefulSet) is deleted; its
# volume claims stay.
- apiGroups: ["apps"]
  resources: ["statefulsets"]
  verbs: ["delete"]
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings"]
  verbs: ["get", "list", "watch", "create", "patch"]
# Pods: watched; deleted when a pod annotation asks for it (tidb.pingcap.com/evict-leader,
# pd-transfer-leader or tidb-graceful-shutdown with delete-pod), and a failed-over PD member's pod
# (with its claims) so it is recreated.
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch", "delete"]
# Volume claims: watched (an informer of the operator's claims, so a settled reconcile reads none
# from the API server), read by name before a decision that deletes something, labelled and
# resized (merge patch); removed members' claims marked tidb.pingcap.com/pvc-defer-deleting and
# deleted before a new member reuses the ordinal or when enablePVReclaim is set.
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get", "list", "watch", "patch", "delete"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create"]
# TidbInitializers (informer) and their status subresource; each one's Job, watched and created
# once by server-side apply. The Job's pod gets no token: its Secret and ConfigMap reach it as
# environment the kubelet resolves.
- apiGroups: ["pingcap.com"]
  resources: ["tidbinitializers"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["pingcap.com"]
  resources: ["tidbinitializers/status"]
  verbs: ["patch"]
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["get", "list", "watch", "create", "patch"]
# A TidbInitializer's passwordSecret: read (get only, by name) to check it has the key root and to
# learn the further users' names; never listed or watched. spec.tidb.initializer.createPassword:
# the Secret <cluster>-init read by name and created when absent (never updated).
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "create"]
# TidbMonitors: read (informer), status written, and a finalizer patched on and off (it removes a
# clusterScoped monitor's ClusterRole, which no owner reference can). The clusters a monitor
# references are read: TidbClusters above, DMClusters by GET.
- apiGroups: ["pingcap.com"]
  resources: ["tidbmonitors"]
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["pingcap.com"]
  resources: ["tidbmonitors/status"]
  verbs: ["patch"]
# DMClusters: read (informer; a monitor's DM clusters are read by name) and status written. The
# DM objects (Services, ConfigMaps, StatefulSets, pods, claims, the <dc>-dm-discovery Deployment, its
# ServiceAccount, Role and RoleBinding) use the TidbCluster rules above.
- apiGroups: ["pingcap.com"]
  resources: ["dmclusters"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["pingcap.com"]
  resources: ["dmclusters/status"]
  verbs: ["patch"]
# A monitor's own Secrets (Grafana admin, TLS assets) are read by name and server-side applied; a
# TLS cluster's client certificate Secret is read by name and copied into the TLS assets. Never
# listed or watched.
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "patch"]
# spec.prometheus.ingress and spec.grafana.ingress.
- apiGroups: ["networking.k8s.io"]
  resources: ["ingresses"]
  verbs: ["get", "list", "watch", "create", "patch"]
# Backups, Restores, BackupSchedules: read (informers), status written, a finalizer on Backups
# (cleanPolicy), and the Backups a schedule creates and its retention deletes. The Job's own
# ServiceAccount gets a Role for its one object's status (hence get and patch on the status here:
# a Role can only grant what its creator holds). A backup's Job is deleted before its data is
# cleaned.
- apiGroups: ["pingcap.com"]
  resources: ["backups", "restores", "backupschedules"]
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["pingcap.com"]
  resources: ["backups"]
  verbs: ["create", "delete"]
- apiGroups: ["pingcap.com"]
  resources: ["backups/status", "restores/status", "backupschedules/status"]
  verbs: ["get", "patch"]
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["delete"]
{{- end }}

{{/*
A clusterScoped TidbMonitor's Prometheus discovers pods in every namespace: the controller applies a
ClusterRole and ClusterRoleBinding for it and deletes them with the monitor. Cluster-scoped installs
only; a namespace-scoped install reports such a monitor as not ready, with why.
*/}}
{{- define "tidb-operator.controller.monitorClusterRules" -}}
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["clusterroles", "clusterrolebindings"]
  verbs: ["get", "create", "patch", "delete"]
{{- end }}

{{/*
Cluster-scoped objects behind the volume claims. A Role cannot grant them, so a namespace-scoped
install gets them only as a separate ClusterRole with rbac.clusterVolumeAccess=true; without them
the controller does not apply spec.pvReclaimPolicy and does not resize volumes (it reports why).
*/}}
{{- define "tidb-operator.controller.volumeRules" -}}
# spec.pvReclaimPolicy on the PersistentVolumes bound to a cluster's claims (merge patch), and
# Delete before an enablePVReclaim deletion; list and watch for the cache of the volumes the operator
# labelled (selected by the app.kubernetes.io/namespace label), which saves a read per new volume.
- apiGroups: [""]
  resources: ["persistentvolumes"]
  verbs: ["get", "list", "watch", "patch"]
# Volume resize: does the claim's StorageClass (or the default one) allow expansion?
- apiGroups: ["storage.k8s.io"]
  resources: ["storageclasses"]
  verbs: ["get", "list"]
{{- end }}

{{/*
Nodes are cluster-scoped too: a namespace-scoped install gets this rule only as a separate
ClusterRole with rbac.clusterNodeAccess=true; without it TiProxy's zone labels are not set (one
WARN log line says so), as upstream skips them without a Node lister.
*/}}
{{- define "tidb-operator.controller.nodeRules" -}}
# TiProxy's labels: the zone (and PD's other location labels) of the Node each TiProxy pod runs on,
# read by name; never listed or watched.
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get"]
{{- end }}

{{- define "tidb-operator.controller.leaderElectionRules" -}}
# fabric8's LeaderElector renews the Lease with a PATCH; java-operator-sdk refuses to start unless
# create, get and update are granted too.
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
