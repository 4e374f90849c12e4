package io.tidb.operator.webhook;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /validate} or {@code POST /mutate}: takes the body {@link InFlightBytesHandler} read,
 * answers with an AdmissionReview, and counts the request. A body that is not an AdmissionReview
 * gets 400, one over the limit 413; the server never answers 5xx for what a client sent.
 */
final class AdmissionEndpoint implements Handler {

  private static final Logger log = LoggerFactory.getLogger(AdmissionEndpoint.class);

  private final AdmissionOperation operation;
  private final AdmissionService service;
  private final AdmissionReviewCodec codec;
  private final WebhookMetrics metrics;
  private final int maxBodyBytes;
  private final ReviewTurns turns;
  private final AdmissionReviewCodec.ObjectTypes objectTypes;
  private final DenialLog refusals = DenialLog.standard();

  AdmissionEndpoint(
      AdmissionOperation operation,
      AdmissionService service,
      AdmissionReviewCodec codec,
      WebhookMetrics metrics,
      int maxBodyBytes,
      ReviewTurns turns) {
    this.operation = operation;
    this.service = service;
    this.codec = codec;
    this.metrics = metrics;
    this.maxBodyBytes = maxBodyBytes;
    this.turns = turns;
    this.objectTypes = service.objectTypes(operation);
  }

  @Override
  public void handle(Context ctx) {
    long start = System.nanoTime();
    String result;
    if (ctx.req().getAttribute(InFlightBytesHandler.TOO_LARGE_ATTRIBUTE) != null) {
      reject(ctx, 413, "request body is larger than the limit of " + maxBodyBytes + " bytes");
      result = "too_large";
    } else {
      // A request without the attribute has no body: InFlightBytesHandler reads every other one.
      byte[] body = ctx.req().getAttribute(InFlightBytesHandler.BODY_ATTRIBUTE) instanceof byte[] whole
          ? whole
          : new byte[0];
      result = judge(ctx, body);
    }
    metrics.recordAdmission(operation, result, System.nanoTime() - start);
  }

  /** Answers one review; returns the result to count it under. */
  private String judge(Context ctx, byte[] body) {
    try {
      if (!turns.enter()) {
        reject(ctx, 429, "webhook busy: " + turns.size() + " reviews are being judged and more are"
            + " waiting; retry");
        return "busy";
      }
      try {
        AdmissionService.Outcome outcome = service.handle(operation, codec.parse(body, objectTypes));
        ctx.status(200).contentType("application/json").result(codec.write(outcome.review()));
        return outcome.result().tag();
      } finally {
        turns.leave();
      }
    } catch (BadAdmissionRequestException e) {
      reject(ctx, 400, "malformed AdmissionReview: " + e.getMessage());
      return "bad_request";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reject(ctx, 503, "webhook stopping");
      return "busy";
    }
  }

  private void reject(Context ctx, int status, String message) {
    // The message goes to the caller only: a parser's message can quote the body.
    long unlogged = refusals.admit();
    if (unlogged >= 0) {
      log.info(
          "admission request refused endpoint={} status={} remote={} unloggedSinceLast={}",
          operation.tag(),
          status,
          LogSafe.value(ctx.req().getRemoteAddr()),
          unlogged);
    }
    ctx.status(status).contentType("text/plain; charset=utf-8").result(message + "\n");
  }
}
