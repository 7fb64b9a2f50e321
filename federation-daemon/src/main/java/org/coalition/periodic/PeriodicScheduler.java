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
 * Quartz, only as a trigger: runs {@link BalancingPeriod#run()} every period (configurable),
 * never two at once. One scheduler per daemon, in memory (RAMJobStore), one thread.
 */
public final class PeriodicScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PeriodicScheduler.class);
  private static final AtomicInteger INSTANCES = new AtomicInteger();
  private static final String TASK = "task";

  private final Scheduler scheduler;

  public PeriodicScheduler(String site, Duration period, BalancingPeriod task) {
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("BILB period must be positive, was " + period);
    }
    Properties props = new Properties();
    props.setProperty(StdSchedulerFactory.PROP_SCHED_INSTANCE_NAME, "coalition-" + site + "-" + INSTANCES.incrementAndGet());
    props.setProperty("org.quartz.threadPool.threadCount", "1");
    props.setProperty("org.quartz.threadPool.threadNamePrefix", "coalition-period-" + site);
    props.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
    try {
      scheduler = new StdSchedulerFactory(props).getScheduler();
      JobDataMap data = new JobDataMap();
      data.put(TASK, task);
      JobDetail job = JobBuilder.newJob(PeriodJob.class).withIdentity("bilb-period", site).usingJobData(data).build();
      Trigger trigger = TriggerBuilder.newTrigger().withIdentity("every-period", site)
          .startNow()
          .withSchedule(SimpleScheduleBuilder.simpleSchedule()
              .withIntervalInMilliseconds(period.toMillis())
              .repeatForever()
              .withMisfireHandlingInstructionNextWithRemainingCount())
          .build();
      scheduler.scheduleJob(job, trigger);
      scheduler.start();
    } catch (SchedulerException e) {
      throw new IllegalStateException("cannot start the period scheduler of " + site + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      scheduler.shutdown(true);
    } catch (SchedulerException e) {
      LOG.warn("stopping the period scheduler: {}", e.getMessage());
    }
  }

  /** The Quartz job: one call into {@link BalancingPeriod}; errors are logged, the next period tries again. */
  @DisallowConcurrentExecution
  public static final class PeriodJob implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      BalancingPeriod task = (BalancingPeriod) context.getMergedJobDataMap().get(TASK);
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.warn("period failed, the next one retries: {}", e.getMessage());
      }
    }
  }
}
