import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names the jars that only some of a module's direct dependencies need, so that hack/image-lib.sh
 * can keep them off the class path of the modes that do not use those dependencies.
 *
 * <pre>
 *   java hack/SubtreeOnlyJars.java TREE groupId:artifactId...
 * </pre>
 *
 * TREE is {@code mvn dependency:tree -Dverbose=true -Dscope=runtime -DoutputFile=TREE} of the
 * module; the arguments after it name the direct dependencies (the roots). A jar is theirs alone
 * when no other direct dependency leads to it. The verbose tree names a dependency under every
 * path that reaches it (once in full, elsewhere "omitted for duplicate" without its own
 * dependencies), so what the others reach is closed over the full entries. Prints one file name
 * per line, as {@code dependency:copy-dependencies} names the jars.
 */
public final class SubtreeOnlyJars {

  /** One line of the tree; {@code named} when it lies under one of the named roots. */
  private record Node(String key, String fileName, boolean omitted, boolean named) {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: java hack/SubtreeOnlyJars.java TREE groupId:artifactId...");
      System.exit(2);
    }
    Set<String> roots = Set.copyOf(List.of(args).subList(1, args.length));
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    List<Node> nodes = new ArrayList<>();
    Map<String, Set<String>> children = new HashMap<>();
    Deque<Node> path = new ArrayDeque<>();
    Set<String> seenRoots = new HashSet<>();
    for (String line : lines.subList(1, lines.size())) {
      int dash = Math.max(line.indexOf("+- "), line.indexOf("\\- "));
      if (dash < 0 || dash % 3 != 0) {
        throw new IllegalArgumentException("not a line of a dependency tree: " + line);
      }
      int depth = dash / 3;
      String entry = line.substring(dash + 3);
      boolean omitted = entry.startsWith("(");
      String[] spec = (omitted ? entry.substring(1) : entry).split(" ")[0].split(":");
      // groupId:artifactId:type[:classifier]:version:scope
      String classifier = spec.length == 6 ? spec[3] : null;
      String version = spec[spec.length - 2];
      String key = spec[0] + ":" + spec[1] + (classifier == null ? "" : ":" + classifier);
      String fileName = spec[1] + "-" + version + (classifier == null ? "" : "-" + classifier) + "." + spec[2];
      while (path.size() > depth) {
        path.pop();
      }
      String groupAndArtifact = spec[0] + ":" + spec[1];
      boolean named = depth == 0 ? roots.contains(groupAndArtifact) : path.peekLast().named();
      Node node = new Node(key, fileName, omitted, named);
      if (depth == 0) {
        seenRoots.add(groupAndArtifact);
      } else if (!path.peek().omitted()) {
        children.computeIfAbsent(path.peek().key(), k -> new LinkedHashSet<>()).add(key);
      }
      nodes.add(node);
      path.push(node);
    }
    for (String root : roots) {
      if (!seenRoots.contains(root)) {
        throw new IllegalArgumentException(root + " is not a direct runtime dependency in " + args[0]);
      }
    }
    Set<String> reached = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    for (Node n : nodes) {
      if (!n.named() && reached.add(n.key())) {
        todo.add(n.key());
      }
    }
    while (!todo.isEmpty()) {
      for (String child : children.getOrDefault(todo.poll(), Set.of())) {
        if (reached.add(child)) {
          todo.add(child);
        }
      }
    }
    Set<String> theirsAlone = new LinkedHashSet<>();
    for (Node n : nodes) {
      if (!n.omitted() && !reached.contains(n.key())) {
        theirsAlone.add(n.fileName());
      }
    }
    theirsAlone.forEach(System.out::println);
  }
}
