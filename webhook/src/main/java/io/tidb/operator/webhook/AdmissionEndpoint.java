package io.tidb.operator.webhook;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /validate} or {@code POST /mutate}: takes the body {@link InFlightBytesHandler} read
 * (or reads it, up to a limit, when that handler handed it on unread), answers with an
 * AdmissionReview, and counts the request. A body that is not an AdmissionReview gets 400, one
 * over the limit 413; the server never answers 5xx for what a client sent.
 */
final class AdmissionEndpoint implements Handler {

  private static final Logger log = LoggerFactory.getLogger(AdmissionEndpoint.class);

  private final AdmissionOperation operation;
  private final AdmissionService service;
  private final AdmissionReviewCodec codec;
  private final WebhookMetrics metrics;
  private final int maxBodyBytes;
  private final ReviewTurns turns;
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
  }

  @Override
  public void handle(Context ctx) {
    long start = System.nanoTime();
    String result;
    try {
      byte[] body = ctx.req().getAttribute(InFlightBytesHandler.BODY_ATTRIBUTE) instanceof byte[] whole
          ? whole
          : BoundedBody.read(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
      if (!turns.enter()) {
        reject(ctx, 429, "webhook busy: " + turns.size() + " reviews are being judged and more are"
            + " waiting; retry");
        result = "busy";
      } else {
        try {
          AdmissionService.Outcome outcome = service.handle(operation, codec.parse(body));
          ctx.status(200).contentType("application/json").result(codec.write(outcome.review()));
          result = outcome.result().tag();
        } finally {
          turns.leave();
        }
      }
    } catch (RequestTooLargeException e) {
      reject(ctx, 413, e.getMessage());
      result = "too_large";
    } catch (BadAdmissionRequestException e) {
      reject(ctx, 400, "malformed AdmissionReview: " + e.getMessage());
      result = "bad_request";
    } catch (IOException e) {
      reject(ctx, 400, "cannot read request body: " + e.getMessage());
      result = "bad_request";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reject(ctx, 503, "webhook stopping");
      result = "busy";
    }
    metrics.recordAdmission(operation, result, System.nanoTime() - start);
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
