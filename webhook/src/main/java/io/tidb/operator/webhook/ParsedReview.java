package io.tidb.operator.webhook;

import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;

/**
 * An incoming AdmissionReview, with {@code request.object} and {@code request.oldObject} kept as
 * the body's JSON tokens so each is read as the served type only once its rules are known (and
 * again, as a tree, only when a denial lists schema errors).
 *
 * @param review the review, its {@code object} and {@code oldObject} left empty
 * @param object {@code request.object}, or null when absent
 * @param oldObject {@code request.oldObject}, or null when absent
 */
public record ParsedReview(AdmissionReview review, TokenBuffer object, TokenBuffer oldObject) {}
