package org.coalition.api;

import java.util.Locale;
import java.util.Map;
import org.coalition.coordination.Coordination;
import org.coalition.coordination.SiteLedger;
import org.coalition.daemon.Broker;
import org.coalition.handler.QueueObservation;

/** The Prometheus text exposition (format 0.0.4) of one daemon. */
final class Metrics {
  private Metrics() {}

  static String render(Broker broker, DaemonApi.Health health) {
    StringBuilder out = new StringBuilder();
    String site = broker.settings().site();
    Coordination c = broker.coordination();
    broker.lastObservation().ifPresent(o -> observation(out, site, o));
    gauge(out, "coalition_participation_level", "Declared participation level l, core-seconds per period.", label("site", site),
        broker.participation());
    help(out, "coalition_pilots", "gauge", "Pilots of this daemon by state.");
    for (Map.Entry<String, Integer> e : broker.pilotsByState().entrySet()) {
      sample(out, "coalition_pilots", label("site", site) + "," + label("state", e.getKey()), e.getValue());
    }
    long running = c.jobs(site).stream().filter(j -> j.claimed() && !j.finished()).count();
    help(out, "coalition_jobs_in_federation", "gauge", "This site's published jobs still in the federation, by state.");
    sample(out, "coalition_jobs_in_federation", label("site", site) + "," + label("state", "claimed"), running);
    sample(out, "coalition_jobs_in_federation", label("site", site) + "," + label("state", "all"), c.jobs(site).size());
    help(out, "coalition_decisions_total", "counter", "Decisions of the broker by kind and reason.");
    for (Map.Entry<String, Long> e : broker.decisions().counts().entrySet()) {
      String[] kr = e.getKey().split(" ", 2);
      sample(out, "coalition_decisions_total", label("site", site) + "," + label("decision", kr[0]) + "," + label("reason", kr[1]), e.getValue());
    }
    double now = c.now();
    var u = broker.settings().utility();
    help(out, "coalition_ledger", "gauge", "DirectContr ledger per site (" + u + " utility): contribution, utility, priority.");
    for (Map.Entry<String, SiteLedger> e : c.ledgers().entrySet()) {
      SiteLedger l = e.getValue();
      String s = label("site", e.getKey());
      sample(out, "coalition_ledger", s + "," + label("value", "contribution"), l.contribution().get(u).at(now));
      sample(out, "coalition_ledger", s + "," + label("value", "utility"), l.utility().get(u).at(now));
      sample(out, "coalition_ledger", s + "," + label("value", "priority"), l.priority(u, now));
    }
    gauge(out, "coalition_zookeeper_connected", "1 while the ZooKeeper session is connected.", label("site", site),
        health.zookeeperConnected() ? 1 : 0);
    gauge(out, "coalition_leader", "1 while this daemon leads the federation (runs BILB).", label("site", site), c.isLeader() ? 1 : 0);
    return out.toString();
  }

  private static void observation(StringBuilder out, String site, QueueObservation o) {
    String s = label("site", site);
    gauge(out, "coalition_queue_jobs", "Jobs waiting in the local queue.", s, o.pendingJobs());
    gauge(out, "coalition_queue_core_seconds", "Work waiting in the local queue, core-seconds of time limits.", s, o.pendingCoreSeconds());
    gauge(out, "coalition_reservation_ratio", "Allocated cores over total cores of usable nodes.", s, o.reservationRatio());
    gauge(out, "coalition_cores", "Cores of usable nodes.", s, o.totalCores());
  }

  private static void gauge(StringBuilder out, String name, String help, String labels, double value) {
    help(out, name, "gauge", help);
    sample(out, name, labels, value);
  }

  private static void help(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String labels, double value) {
    out.append(name).append('{').append(labels).append("} ");
    out.append(value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : String.format(Locale.ROOT, "%.6g", value));
    out.append('\n');
  }

  private static String label(String name, String value) {
    return name + "=\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
