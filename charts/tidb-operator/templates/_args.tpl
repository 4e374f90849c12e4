{{/*
Command-line flags of the two processes. Kept together so they can be checked against the
picocli @Option names of ControllerMain and WebhookMain in one place.
*/}}
{{- define "tidb-operator.controller.args" -}}
- --watch-namespaces={{ join "," .Values.watchNamespaces }}
- --workers={{ .Values.controller.workers }}
- --kube-api-qps={{ .Values.controller.kubeApiQps }}
- --resync-seconds={{ .Values.controller.resyncSeconds }}
- --reconcile-spacing-millis={{ .Values.controller.reconcileSpacingMillis }}
- --port={{ .Values.controller.port }}
- --discovery-image={{ default (include "tidb-operator.controller.image" .) .Values.controller.discoveryImage }}
- --log-level={{ .Values.controller.logLevel }}
- --auto-failover={{ .Values.controller.autoFailover }}
- --pd-failover-period={{ .Values.controller.pdFailoverPeriod }}
- --tikv-failover-period={{ .Values.controller.tikvFailoverPeriod }}
- --tidb-failover-period={{ .Values.controller.tidbFailoverPeriod }}
- --tiflash-failover-period={{ .Values.controller.tiflashFailoverPeriod }}
{{- if .Values.controller.leaderElection.enabled }}
- --leader-election
- --leader-election-namespace={{ .Release.Namespace }}
- --leader-election-lease={{ include "tidb-operator.controller.fullname" . }}
{{- end }}
{{- end }}

{{- define "tidb-operator.webhook.args" -}}
- --port={{ .Values.webhook.port }}
- --log-level={{ .Values.webhook.logLevel }}
{{- if .Values.certManager.enabled }}
- --cert-dir=/etc/tidb-operator/webhook-tls
{{- else }}
- --namespace={{ .Release.Namespace }}
- --service={{ include "tidb-operator.webhook.fullname" . }}
- --secret={{ include "tidb-operator.webhook.secretName" . }}
- --secret-mount-dir=/etc/tidb-operator/webhook-tls
- --validating-webhook-configuration={{ include "tidb-operator.webhook.configurationName" . }}
- --mutating-webhook-configuration={{ include "tidb-operator.webhook.configurationName" . }}
- --cluster-domain={{ .Values.clusterDomain }}
- --cert-validity-hours={{ .Values.webhook.certificate.validityHours }}
- --cert-renew-before-hours={{ .Values.webhook.certificate.renewBeforeHours }}
{{- end }}
{{- end }}
