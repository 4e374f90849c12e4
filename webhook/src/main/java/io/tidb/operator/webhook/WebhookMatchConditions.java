package io.tidb.operator.webhook;

/**
 * The {@code matchConditions} of the validating webhook configuration, so that while the webhook
 * is unreachable only what it must judge is blocked. An UPDATE is sent to the webhook only when
 * it changes something a rule reads: the spec, the labels, or an annotation under {@code
 * tidb.pingcap.com/} (the delete-slots annotations, for example). Metadata-only updates (another
 * controller's annotations, finalizers, owner references) go through without it. The chart
 * renders this expression; a chart test checks they are the same.
 */
public final class WebhookMatchConditions {

  /** The condition's name in the configuration. */
  public static final String NAME = "changes-what-the-rules-read";

  /** The CEL expression: true sends the request to the webhook. */
  public static final String EXPRESSION =
      "request.operation != 'UPDATE'"
          + " || object.?spec.orValue({}) != oldObject.?spec.orValue({})"
          + " || object.metadata.?labels.orValue({}) != oldObject.metadata.?labels.orValue({})"
          + " || object.metadata.?annotations.orValue({}).filter(k, k.contains('tidb.pingcap.com/'))"
          + ".map(k, k + '=' + object.metadata.annotations[k])"
          + " != oldObject.metadata.?annotations.orValue({}).filter(k, k.contains('tidb.pingcap.com/'))"
          + ".map(k, k + '=' + oldObject.metadata.annotations[k])";

  private WebhookMatchConditions() {}
}
