package io.tidb.operator.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;

/**
 * An incoming AdmissionReview, with {@code request.object} and {@code request.oldObject} apart:
 * each either read already as its served type while the body was parsed, or kept as the body's
 * JSON tokens, to be read once its rules are known.
 *
 * @param review the review, its {@code object} and {@code oldObject} left empty
 * @param object {@code request.object}, or null when absent
 * @param oldObject {@code request.oldObject}, or null when absent
 * @param body the body the review was read from (its tokens are read again from it only when a
 *     denial lists the schema's errors)
 */
public record ParsedReview(AdmissionReview review, ReviewObject object, ReviewObject oldObject, byte[] body) {}
