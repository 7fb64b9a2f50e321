package org.coalition.periodic;

import java.time.Duration;
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
 * each further task given to {@link #every} at its own interval (the market desk's minute), never
 * two runs of one task at once. One scheduler per daemon, in memory (RAMJobStore), a thread per
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

  /** Runs {@code task} every {@code interval} from now on, as {@code name}; a task that throws is logged and runs again at its next time. */
  public void every(String name, Duration interval, Runnable task) {
    try {
      schedule(name, interval, task);
    } catch (SchedulerException e) {
      throw new IllegalStateException("cannot schedule " + name + " of " + site + ": " + e.getMessage(), e);
    }
  }

  private void schedule(String name, Duration interval, Runnable task) throws SchedulerException {
    JobDataMap data = new JobDataMap();
    data.put(TASK, task);
    JobDetail job = JobBuilder.newJob(PeriodJob.class).withIdentity(name, site).usingJobData(data).build();
    Trigger trigger = TriggerBuilder.newTrigger().withIdentity("every-" + name, site)
        .startNow()
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
