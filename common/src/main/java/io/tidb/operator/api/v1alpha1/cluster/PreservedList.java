package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;

/**
 * Schema stand-in for a list of large embedded Kubernetes objects (containers, volumes): in the
 * CRD it becomes an array whose items keep unknown fields, so the CRD stays small enough for
 * client-side {@code kubectl apply}. Referenced only from {@code @SchemaFrom}; never instantiated.
 */
public final class PreservedList extends ArrayList<JsonNode> {
  private static final long serialVersionUID = 1L;

  private PreservedList() {}
}
