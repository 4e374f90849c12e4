package io.tidb.operator.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;

/**
 * An incoming AdmissionReview, with {@code request.object} and {@code request.oldObject} kept as
 * JSON trees so each is read as the served type only once its rules are known.
 *
 * @param review the review, its {@code object} and {@code oldObject} left empty
 * @param object {@code request.object}, or null when absent
 * @param oldObject {@code request.oldObject}, or null when absent
 */
public record ParsedReview(AdmissionReview review, JsonNode object, JsonNode oldObject) {}
