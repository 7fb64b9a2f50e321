package org.coalition.gridengine;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.coalition.handler.PartitionLoad;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Reads what Grid Engine's {@code qstat -xml} prints: pending jobs with their slots and time
 * limits ({@code qstat -xml -u '*' -s p -r}), and cluster queues' used and usable slots
 * ({@code qstat -g c -xml}). A document that is not what qstat writes is a {@link Category#PROTOCOL} error.
 */
final class QstatXml {
  /** Slots: used by running jobs, and usable (total less disabled and broken queue instances). */
  record Slots(int used, int usable) {}

  /** Pending work: jobs (array tasks counted one by one), core-seconds, per queue. */
  record Pending(int jobs, double coreSeconds, List<PartitionLoad> queues) {}

  private QstatXml() {}

  /** Sums the cluster queues of {@code qstat -g c -xml}; {@code queues} empty for all. */
  static Slots slots(String xml, List<String> queues) {
    Element root = parse(xml, "qstat -g c -xml");
    int used = 0;
    int usable = 0;
    for (Element q : children(root, "cluster_queue_summary")) {
      if (!queues.isEmpty() && !queues.contains(text(q, "name"))) {
        continue;
      }
      int total = number(q, "total");
      used += number(q, "used");
      usable += Math.max(0, total - number(q, "temp_disabled") - number(q, "manual_intervention"));
    }
    return new Slots(Math.min(used, usable), usable);
  }

  /**
   * Pending jobs of {@code qstat -xml -u '*' -s p -r}: waiting or held, not in error. A job without
   * a time limit ({@code h_rt}) counts {@code defaultLimit}; one without a queue request counts in
   * {@code defaultQueue}.
   */
  static Pending pending(String xml, Duration defaultLimit, String defaultQueue) {
    Element root = parse(xml, "qstat -xml -r");
    int jobs = 0;
    double coreSeconds = 0;
    Map<String, double[]> perQueue = new LinkedHashMap<>();
    for (Element info : children(root, "job_info")) {
      for (Element job : children(info, "job_list")) {
        String state = text(job, "state");
        if (!state.contains("q") || state.contains("E")) {
          continue; // only waiting work counts; Eqw jobs wait for an administrator, not for slots
        }
        int tasks = tasks(job);
        int slots = number(job, "slots");
        double limit = defaultLimit.toSeconds();
        String queue = defaultQueue;
        for (Element request : children(job, "hard_request")) {
          if ("h_rt".equals(request.getAttribute("name"))) {
            limit = seconds(request.getTextContent().trim());
          }
        }
        for (Element q : children(job, "hard_req_queue")) {
          queue = q.getTextContent().trim().replaceAll("@.*", "");
        }
        jobs += tasks;
        coreSeconds += tasks * slots * limit;
        double[] load = perQueue.computeIfAbsent(queue, k -> new double[2]);
        load[0] += tasks;
        load[1] += tasks * slots * limit;
      }
    }
    List<PartitionLoad> queues = new ArrayList<>();
    perQueue.forEach((q, load) -> queues.add(new PartitionLoad(q, (int) load[0], load[1])));
    return new Pending(jobs, coreSeconds, queues);
  }

  /**
   * A job or array task as {@code qstat -xml -u '*' -g d} lists it, waiting or running: its number, its task (0 for no array task),
   * its state ({@code qw}, {@code hqw}, {@code t}, {@code r}...).
   */
  record Listed(long job, long task, String state) {
    /** The id Coalition names it by: {@code JOB} or {@code JOB.TASK}. */
    String id() {
      return task == 0 ? Long.toString(job) : job + "." + task;
    }
  }

  /**
   * Every job and task of {@code qstat -xml -u '*' -g d}, one by one: the running ones (and those being sent to a host), which it
   * prints under {@code queue_info}, and the waiting ones, under {@code job_info}.
   */
  static List<Listed> listed(String xml) {
    Element root = parse(xml, "qstat -xml -g d");
    List<Listed> out = new ArrayList<>();
    for (String part : List.of("queue_info", "job_info")) {
      for (Element info : children(root, part)) {
        for (Element job : children(info, "job_list")) {
          long number = number(job, "JB_job_number");
          List<Element> tasks = children(job, "tasks");
          String task = tasks.isEmpty() ? "0" : tasks.get(0).getTextContent().trim();
          if (!task.matches("[0-9]{1,9}")) {
            throw new HandlerException(Category.PROTOCOL, "qstat -g d printed task '" + task + "' of job " + number + ", not one task's number");
          }
          out.add(new Listed(number, Long.parseLong(task), text(job, "state")));
        }
      }
    }
    return out;
  }

  /** Tasks of a pending array job ({@code <tasks>1-5:2,9</tasks>}); 1 for an ordinary job. */
  static int tasks(Element job) {
    List<Element> tasks = children(job, "tasks");
    if (tasks.isEmpty()) {
      return 1;
    }
    int n = 0;
    for (String range : tasks.get(0).getTextContent().trim().split(",")) {
      try {
        String[] stepParts = range.split(":", -1);
        String[] bounds = stepParts[0].split("-", -1);
        long first = Integer.parseInt(bounds[0].trim());
        long last = bounds.length > 1 ? Integer.parseInt(bounds[1].trim()) : first;
        long step = stepParts.length > 1 ? Integer.parseInt(stepParts[1].trim()) : 1;
        if (first < 1 || step < 1 || bounds.length > 2 || stepParts.length > 2) {
          throw new NumberFormatException("task ids are 1 or more, steps too");
        }
        n = (int) Math.min(Integer.MAX_VALUE, n + (last >= first ? (last - first) / step + 1 : 0));
      } catch (NumberFormatException e) {
        throw new HandlerException(Category.PROTOCOL, "qstat printed a task range Coalition cannot read: '" + range + "'");
      }
    }
    return n;
  }

  /** A time in seconds or {@code [[H:]M:]S}, as Grid Engine accepts and prints it: finite, 0 or more. */
  static double seconds(String value) {
    try {
      double total = 0;
      String[] parts = value.split(":", -1);
      if (parts.length > 3) {
        throw new NumberFormatException("more than H:M:S");
      }
      for (String part : parts) {
        double v = Double.parseDouble(part.isEmpty() ? "0" : part);
        if (!(v >= 0 && v < 1e12)) {
          throw new NumberFormatException("not a time");
        }
        total = total * 60 + v;
      }
      return total;
    } catch (NumberFormatException e) {
      throw new HandlerException(Category.PROTOCOL, "qstat printed a time limit Coalition cannot read: '" + value + "'");
    }
  }

  private static Element parse(String xml, String what) {
    return parse(xml, what, "job_info");
  }

  /** The root element of what {@code what} printed, which must be {@code <rootTag>}. */
  static Element parse(String xml, String what, String rootTag) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(null);
      Document doc = builder.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
      Element root = doc.getDocumentElement();
      if (!rootTag.equals(root.getTagName())) {
        throw new HandlerException(Category.PROTOCOL, what + " printed a <" + root.getTagName() + "> document, not <" + rootTag + ">");
      }
      return root;
    } catch (HandlerException e) {
      throw e;
    } catch (Exception e) {
      String start = xml.length() > 200 ? xml.substring(0, 200) + "..." : xml;
      throw new HandlerException(Category.PROTOCOL, what + " printed something that is not XML (" + e.getMessage() + "): " + start.strip(), e);
    }
  }

  static List<Element> children(Element parent, String tag) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        out.add(e);
      }
    }
    return out;
  }

  static String text(Element parent, String tag) {
    List<Element> found = children(parent, tag);
    if (found.isEmpty()) {
      throw new HandlerException(Category.PROTOCOL, "qstat's <" + parent.getTagName() + "> lacks <" + tag + ">");
    }
    return found.get(0).getTextContent().trim();
  }

  static int number(Element parent, String tag) {
    String value = text(parent, tag);
    try {
      int n = Integer.parseInt(value);
      if (n < 0) {
        throw new NumberFormatException("negative");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new HandlerException(Category.PROTOCOL, "qstat's <" + tag + "> is not a whole number of 0 or more: '" + value + "'");
    }
  }
}
