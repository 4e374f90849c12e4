{{/* Chart name, possibly overridden. */}}
{{- define "tidb-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every object name: <release>-<chart>, or <release> if it already holds the chart name. */}}
{{- define "tidb-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tidb-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object. */}}
{{- define "tidb-operator.labels" -}}
helm.sh/chart: {{ include "tidb-operator.chart" . }}
app.kubernetes.io/name: {{ include "tidb-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tidb-operator
{{- end }}

{{/* Selector labels of one component; call with (dict "root" $ "component" "controller"). */}}
{{- define "tidb-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tidb-operator.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* All labels of one component; call with (dict "root" $ "component" "controller"). */}}
{{- define "tidb-operator.componentLabels" -}}
{{ include "tidb-operator.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "tidb-operator.controller.fullname" -}}
{{- printf "%s-controller" (include "tidb-operator.fullname" .) }}
{{- end }}

{{- define "tidb-operator.webhook.fullname" -}}
{{- printf "%s-webhook" (include "tidb-operator.fullname" .) }}
{{- end }}

{{- define "tidb-operator.controller.serviceAccountName" -}}
{{- if .Values.controller.serviceAccount.create }}
{{- default (include "tidb-operator.controller.fullname" .) .Values.controller.serviceAccount.name }}
{{- else }}
{{- required "controller.serviceAccount.name is required when controller.serviceAccount.create is false" .Values.controller.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "tidb-operator.webhook.serviceAccountName" -}}
{{- if .Values.webhook.serviceAccount.create }}
{{- default (include "tidb-operator.webhook.fullname" .) .Values.webhook.serviceAccount.name }}
{{- else }}
{{- required "webhook.serviceAccount.name is required when webhook.serviceAccount.create is false" .Values.webhook.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Name of both webhook configurations (validating and mutating) and of the webhook Service. */}}
{{- define "tidb-operator.webhook.configurationName" -}}
{{- include "tidb-operator.webhook.fullname" . }}
{{- end }}

{{- define "tidb-operator.webhook.secretName" -}}
{{- default (printf "%s-tls" (include "tidb-operator.webhook.fullname" .)) .Values.webhook.certificate.secretName }}
{{- end }}

{{- define "tidb-operator.webhook.certificateName" -}}
{{- printf "%s-serving" (include "tidb-operator.webhook.fullname" .) }}
{{- end }}

{{/* <registry>/<repository>:<tag>; call with (dict "root" $ "repository" "...") */}}
{{- define "tidb-operator.image" -}}
{{- $tag := default .root.Chart.AppVersion .root.Values.image.tag }}
{{- if .root.Values.image.registry }}
{{- printf "%s/%s:%s" (trimSuffix "/" .root.Values.image.registry) .repository $tag }}
{{- else }}
{{- printf "%s:%s" .repository $tag }}
{{- end }}
{{- end }}

{{- define "tidb-operator.controller.image" -}}
{{- include "tidb-operator.image" (dict "root" . "repository" .Values.controller.image.repository) }}
{{- end }}

{{- define "tidb-operator.webhook.image" -}}
{{- include "tidb-operator.image" (dict "root" . "repository" .Values.webhook.image.repository) }}
{{- end }}

{{/* True ("true") when the install is namespace-scoped. */}}
{{- define "tidb-operator.namespaceScoped" -}}
{{- if .Values.watchNamespaces }}true{{ end }}
{{- end }}

{{/*
Refuse value combinations the chart cannot honour, with a message naming the value.
*/}}
{{- define "tidb-operator.validateValues" -}}
{{- if has .Release.Namespace .Values.watchNamespaces }}
{{- fail (printf "watchNamespaces: %q is the release namespace; the webhooks never intercept the namespace the operator runs in (a broken webhook must not lock out its own namespace), so TidbClusters there would go unchecked. Install the operator into its own namespace, e.g. tidb-admin." .Release.Namespace) }}
{{- end }}
{{- end }}

{{/*
Which namespaces the webhooks intercept: the watched ones (or all), never the release namespace.
*/}}
{{- define "tidb-operator.webhook.namespaceSelector" -}}
matchExpressions:
  - key: kubernetes.io/metadata.name
    operator: NotIn
    values:
      - {{ .Release.Namespace | quote }}
{{- with .Values.watchNamespaces }}
  - key: kubernetes.io/metadata.name
    operator: In
    values:
{{- range . }}
      - {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* clientConfig of one webhook path; call with (dict "root" $ "path" "/validate"). */}}
{{- define "tidb-operator.webhook.clientConfig" -}}
{{- if .root.Values.local.webhookUrl }}
url: {{ printf "%s%s" (trimSuffix "/" .root.Values.local.webhookUrl) .path | quote }}
{{- else }}
service:
  name: {{ include "tidb-operator.webhook.fullname" .root }}
  namespace: {{ .root.Release.Namespace }}
  path: {{ .path }}
  port: 443
{{- end }}
{{- end }}

{{/* Annotations on the webhook configurations: cert-manager's CA injection, when enabled. */}}
{{- define "tidb-operator.webhook.configurationAnnotations" -}}
{{- if .Values.certManager.enabled }}
cert-manager.io/inject-ca-from: {{ printf "%s/%s" .Release.Namespace (include "tidb-operator.webhook.certificateName" .) }}
{{- end }}
{{- end }}
