package org.coalition.gridengine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HandlerException.Category;
import org.w3c.dom.Element;

/**
 * What Grid Engine's {@code qstat -j LIST -xml} says of jobs: who owns them, their context
 * variables, working folder, script, slots, limits and array range; what a home needs of its
 * users' jobs that {@code qstat -xml -r} does not print. Jobs of the list that no longer exist
 * are left out (qstat prints {@code <unknown_jobs>} when none does).
 */
final class QstatJobs {
  /** {@code JB_type}'s bit of a binary job ({@code qsub -b y}): its command is no script. */
  static final int BINARY = 64;
  /** {@code JB_type}'s bits of interactive jobs ({@code qsh}, {@code qlogin}, {@code qrsh}, {@code qrlogin}). */
  static final int INTERACTIVE = 0x0f;
  /** {@code JB_type}'s bit of an array job ({@code qsub -t}; 8.1.9 prints 128 for a script array, 192 for a binary one). */
  static final int ARRAY = 128;

  /**
   * One job.
   *
   * @param type {@code JB_type}: 0 for a batch script, {@link #ARRAY} for an array of them, {@link #BINARY} and
   *     {@link #INTERACTIVE} bits for binary and interactive jobs
   * @param slots the slots it asks: its parallel environment's smallest count, 1 without one
   * @param hardRuntime its {@code h_rt} in seconds, or -1 when it asks none
   * @param executionTime the time it may start at ({@code qsub -a}), seconds since 1970, 0 for none
   * @param firstTask its array's first task, 0 for a job that is no array
   * @param shell the shell it names ({@code qsub -S}), empty for the queue's
   * @param scriptFile the script as its user named it to {@code qsub} ({@code STDIN} for one read from standard input)
   * @param submittedFrom the folder {@code qsub} ran in ({@code $SGE_O_WORKDIR}), against which a relative {@code scriptFile} is read
   * @param submissionTime when it was submitted, seconds since 1970
   */
  record Job(long number, String owner, String cwd, Map<String, String> context, String execFile, String shell, int type, String parallelEnvironment,
      int slots, double hardRuntime, Map<String, Double> requests, long executionTime, long firstTask, long lastTask, long taskStep,
      String scriptFile, String submittedFrom, long submissionTime) {
    Job {
      context = Map.copyOf(context);
      requests = Map.copyOf(requests);
    }

    boolean array() {
      return firstTask > 0 && (lastTask > firstTask || taskStep > 1 || firstTask > 1);
    }
  }

  private QstatJobs() {}

  /** The jobs {@code qstat -j LIST -xml} printed, by number. */
  static Map<Long, Job> parse(String xml) {
    if (xml.contains("<unknown_jobs")) {
      QstatXml.parse(xml, "qstat -j -xml", "unknown_jobs");
      return Map.of();
    }
    Element root = QstatXml.parse(xml, "qstat -j -xml", "detailed_job_info");
    Map<Long, Job> out = new LinkedHashMap<>();
    for (Element info : QstatXml.children(root, "djob_info")) {
      for (Element e : QstatXml.children(info, "element")) {
        Job job = job(e);
        out.put(job.number(), job);
      }
    }
    return out;
  }

  private static Job job(Element e) {
    long number = QstatXml.number(e, "JB_job_number");
    Map<String, String> context = new LinkedHashMap<>();
    for (Element list : QstatXml.children(e, "JB_context")) {
      for (Element v : QstatXml.children(list, "context_list")) {
        context.put(QstatXml.text(v, "VA_variable"), optional(v, "VA_value"));
      }
    }
    Map<String, Double> requests = new LinkedHashMap<>();
    for (Element list : QstatXml.children(e, "JB_hard_resource_list")) {
      for (Element r : QstatXml.children(list, "qstat_l_requests")) {
        requests.put(QstatXml.text(r, "CE_name"), decimal(r, "CE_doubleval", number));
      }
    }
    int slots = 1;
    String pe = optional(e, "JB_pe");
    for (Element range : QstatXml.children(e, "JB_pe_range")) {
      for (Element r : QstatXml.children(range, "ranges")) {
        slots = Math.max(1, QstatXml.number(r, "RN_min"));
      }
    }
    long first = 0;
    long last = 0;
    long step = 1;
    for (Element structure : QstatXml.children(e, "JB_ja_structure")) {
      for (Element r : QstatXml.children(structure, "task_id_range")) {
        first = QstatXml.number(r, "RN_min");
        last = QstatXml.number(r, "RN_max");
        step = Math.max(1, QstatXml.number(r, "RN_step"));
      }
    }
    String shell = "";
    for (Element list : QstatXml.children(e, "JB_shell_list")) {
      for (Element path : QstatXml.children(list, "path_list")) {
        shell = shell.isEmpty() ? optional(path, "PN_path") : shell;
      }
    }
    String submittedFrom = "";
    for (Element list : QstatXml.children(e, "JB_env_list")) {
      for (Element v : QstatXml.children(list, "job_sublist")) {
        if (optional(v, "VA_variable").equals("__SGE_PREFIX__O_WORKDIR")) {
          submittedFrom = optional(v, "VA_value");
        }
      }
    }
    Double runtime = requests.get("h_rt");
    return new Job(number, QstatXml.text(e, "JB_owner"), optional(e, "JB_cwd"), context, optional(e, "JB_exec_file"), shell,
        optional(e, "JB_type").isEmpty() ? 0 : QstatXml.number(e, "JB_type"), pe, slots, runtime == null ? -1 : runtime, requests,
        optional(e, "JB_execution_time").isEmpty() ? 0 : QstatXml.number(e, "JB_execution_time"), first, last, step,
        optional(e, "JB_script_file"), submittedFrom, optional(e, "JB_submission_time").isEmpty() ? 0 : QstatXml.number(e, "JB_submission_time"));
  }

  private static String optional(Element parent, String tag) {
    List<Element> found = QstatXml.children(parent, tag);
    return found.isEmpty() ? "" : found.get(0).getTextContent().trim();
  }

  private static double decimal(Element parent, String tag, long job) {
    String value = QstatXml.text(parent, tag);
    try {
      double d = Double.parseDouble(value);
      if (!(d >= 0 && d < 1e18)) {
        throw new NumberFormatException("out of range");
      }
      return d;
    } catch (NumberFormatException ex) {
      throw new HandlerException(Category.PROTOCOL, "qstat -j printed a request of job " + job + " Coalition cannot read: '" + value + "'");
    }
  }
}
