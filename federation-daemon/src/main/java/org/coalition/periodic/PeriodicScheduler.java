package org.coalition.periodic;

import java.time.Duration;
import java.util.Date;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quartz, only as a trigger: runs {@link BalancingPeriod#run()} every period (configurable), and
 * each further task given to {@link #every} at its own interval on that interval's grid (the market
 * desk's half minute), never two runs of one task at once. One scheduler per daemon, in memory (RAMJobStore), a thread per
 * task, so a long balancing period does not hold the market's calendar back.
 */
public final class PeriodicScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PeriodicScheduler.class);
  private static final AtomicInteger INSTANCES = new AtomicInteger();
  private static final String TASK = "task";

  /** The tasks one daemon runs: the balancing period and the market desk. */
  private static final int THREADS = 2;

  private final Scheduler scheduler;
  private final String site;

  public PeriodicScheduler(String site, Duration period, BalancingPeriod task) {
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("BILB period must be positive, was " + period);
    }
    this.site = site;
    Properties props = new Properties();
    props.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, "coalition-" + site + "-" + INSTANCES.incrementAndGet());
    props.setProperty("org.quartz.threadPool.threadCount", String.valueOf(THREADS));
    props.setProperty("org.quartz.threadPool.threadNamePrefix", "coalition-period-" + site);
    props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
    try {
      scheduler = new StdSchedulerFactory(props).getScheduler();
      schedule("bilb-period", period, task::run);
      scheduler.start();
    } catch (SchedulerException e) {
      throw new IllegalStateException("cannot start the period scheduler of " + site + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs {@code task} every {@code interval}, as {@code name}, on the grid of that interval counted
   * from the epoch (a 30-second interval runs at :00 and :30 of each UTC minute, {@link #GRID_LAG_MILLIS} ms
   * after), so that what happens at a time on that grid (a market slot opening) is seen at once and
   * not up to an interval late; a task that throws is logged and runs again at its next time.
   */
  public void every(String name, Duration interval, Runnable task) {
    try {
      schedule(name, interval, task, onTheGrid(System.currentTimeMillis(), interval.toMillis()));
    } catch (SchedulerException e) {
      throw new IllegalStateException("cannot schedule " + name + " of " + site + ": " + e.getMessage(), e);
    }
  }

  /** How long after a time on its grid a task of {@link #every} runs: a little, so that a clock read in it is past that time. */
  static final long GRID_LAG_MILLIS = 200;

  /** The first time after {@code nowMillis} on the grid of {@code intervalMillis} from the epoch, plus {@link #GRID_LAG_MILLIS}. */
  static long onTheGrid(long nowMillis, long intervalMillis) {
    return Math.floorDiv(nowMillis, intervalMillis) * intervalMillis + intervalMillis + GRID_LAG_MILLIS;
  }

  private void schedule(String name, Duration interval, Runnable task) throws SchedulerException {
    schedule(name, interval, task, System.currentTimeMillis());
  }

  private void schedule(String name, Duration interval, Runnable task, long startMillis) throws SchedulerException {
    JobDataMap data = new JobDataMap();
    data.put(TASK, task);
    JobDetail job = JobBuilder.newJob(PeriodJob.class).withIdentity(name, site).usingJobData(data).build();
    Trigger trigger = TriggerBuilder.newTrigger().withIdentity("every-" + name, site)
        .startAt(new Date(startMillis))
        .withSchedule(SimpleScheduleBuilder.simpleSchedule()
            .withIntervalInMilliseconds(interval.toMillis())
            .repeatForever()
            .withMisfireHandlingInstructionNextWithRemainingCount())
        .build();
    scheduler.scheduleJob(job, trigger);
  }

  @Override
  public void close() {
    try {
      scheduler.shutdown(true);
    } catch (SchedulerException e) {
      LOG.warn("stopping the period scheduler: {}", e.getMessage());
    }
  }

  /** The Quartz job: one run of its task; errors are logged, the next time tries again. */
  @DisallowConcurrentExecution
  public static final class PeriodJob implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      Runnable task = (Runnable) context.getMergedJobDataMap().get(TASK);
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.warn("{} failed, the next one retries: {}", context.getJobDetail().getKey().getName(), e.getMessage());
      }
    }
  }
}
