package org.coalition.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.coalition.handler.HandlerException;
import org.coalition.handler.HomeJob;
import org.coalition.handler.Tool;
import org.coalition.handler.files.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grid Engine's home without a cluster: its jobs as {@code qstat -j -xml} prints them (shapes taken from 8.1.9), and their scripts. */
class GridEngineHomeTest {
  @TempDir
  Path tmp;

  /** One job of {@code qstat -j -xml}, as 8.1.9 prints it, with only the elements the home reads. */
  static String job(long number, String context, String extra) {
    return "<element><JB_job_number>" + number + "</JB_job_number><JB_exec_file>job_scripts/" + number + "</JB_exec_file>"
        + "<JB_owner>coalition-user</JB_owner><JB_cwd>/home/u/run</JB_cwd>" + context + extra + "</element>";
  }

  static String details(String... jobs) {
    return "<?xml version='1.0'?>\n<detailed_job_info xmlns:xsd=\"x\"><djob_info>" + String.join("", jobs) + "</djob_info></detailed_job_info>";
  }

  static final String OPTED_IN = "<JB_context><context_list><VA_variable>COALITION_FEDERATE</VA_variable><VA_value>1</VA_value></context_list>"
      + "</JB_context>";
  static final String TWO_SLOTS_AN_HOUR_2G = "<JB_hard_resource_list><qstat_l_requests><CE_name>h_rt</CE_name><CE_doubleval>3600.000000</CE_doubleval>"
      + "</qstat_l_requests><qstat_l_requests><CE_name>mem_free</CE_name><CE_doubleval>2147483648.000000</CE_doubleval></qstat_l_requests>"
      + "</JB_hard_resource_list><JB_pe>smp</JB_pe><JB_pe_range><ranges><RN_min>2</RN_min><RN_max>2</RN_max><RN_step>1</RN_step></ranges></JB_pe_range>";
  static final String TASKS_1_TO_5_BY_2 = "<JB_ja_structure><task_id_range><RN_min>1</RN_min><RN_max>5</RN_max><RN_step>2</RN_step></task_id_range>"
      + "</JB_ja_structure><JB_type>128</JB_type>";

  @Test
  void aJobIsReadWithItsSlotsLimitMemoryAndHolds() {
    QstatJobs.Job job = QstatJobs.parse(details(job(483, OPTED_IN, TWO_SLOTS_AN_HOUR_2G))).get(483L);
    HomeJob waiting = GridEngineHome.homeJob(new QstatXml.Listed(483, 0, "qw"), job, 1000, false, "mem_free");
    assertEquals("483", waiting.id());
    assertEquals("coalition-user", waiting.user());
    assertEquals(2, waiting.cpus());
    assertEquals(3600, waiting.timeLimitSeconds());
    assertEquals(2048, waiting.memoryMb(), "mem_free is the whole job's");
    assertEquals("/home/u/run", waiting.workDir());
    assertTrue(waiting.ready());
    assertFalse(waiting.held());
    assertEquals("", waiting.staysHome());
    HomeJob held = GridEngineHome.homeJob(new QstatXml.Listed(483, 0, "hqw"), job, 1000, false, "mem_free");
    assertTrue(held.held(), "any hold, Coalition's too");
    assertFalse(held.ready());
    assertFalse(GridEngineHome.homeJob(new QstatXml.Listed(483, 0, "qw"), job, 1000, true, "mem_free").ready(), "its replay waits for a slot");
  }

  @Test
  void hVmemIsPerSlotAndAStartTimeAheadKeepsAJobFromBeingReady() {
    String perSlot = "<JB_hard_resource_list><qstat_l_requests><CE_name>h_vmem</CE_name><CE_doubleval>1073741824</CE_doubleval></qstat_l_requests>"
        + "</JB_hard_resource_list><JB_pe>smp</JB_pe><JB_pe_range><ranges><RN_min>3</RN_min><RN_max>3</RN_max><RN_step>1</RN_step></ranges>"
        + "</JB_pe_range><JB_execution_time>2000</JB_execution_time>";
    QstatJobs.Job job = QstatJobs.parse(details(job(7, OPTED_IN, perSlot))).get(7L);
    assertEquals(3 * 1024, GridEngineHome.memoryMb(job, "mem_free"));
    assertFalse(GridEngineHome.homeJob(new QstatXml.Listed(7, 0, "qw"), job, 1999, false, "mem_free").ready(), "qsub -a: not before 2000");
    assertTrue(GridEngineHome.homeJob(new QstatXml.Listed(7, 0, "qw"), job, 2000, false, "mem_free").ready());
  }

  @Test
  void anArrayTaskCarriesItsNumbersAndAnArrayOfSeveralSlotsATaskStaysHome() {
    QstatJobs.Job array = QstatJobs.parse(details(job(484, OPTED_IN, TASKS_1_TO_5_BY_2))).get(484L);
    HomeJob task = GridEngineHome.homeJob(new QstatXml.Listed(484, 3, "qw"), array, 0, false, "mem_free");
    assertEquals("484.3", task.id());
    assertEquals(Map.of("SGE_TASK_ID", "3", "SGE_TASK_FIRST", "1", "SGE_TASK_LAST", "5", "SGE_TASK_STEPSIZE", "2"), task.environment());
    assertEquals("", task.staysHome());
    QstatJobs.Job wide = QstatJobs.parse(details(job(485, OPTED_IN, TASKS_1_TO_5_BY_2 + TWO_SLOTS_AN_HOUR_2G))).get(485L);
    assertTrue(GridEngineHome.staysHome(wide).startsWith("it is an array of 2 slots a task"), GridEngineHome.staysHome(wide));
    for (String type : List.of("64", "192")) { // a binary job, a binary array (8.1.9's JB_type)
      QstatJobs.Job binary = QstatJobs.parse(details(job(486, OPTED_IN, "<JB_type>" + type + "</JB_type>"))).get(486L);
      assertTrue(GridEngineHome.staysHome(binary).startsWith("it is a binary job (qsub -b y)"), GridEngineHome.staysHome(binary));
    }
  }

  @Test
  void jobsThatNoLongerExistAreLeftOutAndWhatIsNotQstatsIsAProtocolError() {
    assertEquals(Map.of(), QstatJobs.parse("<?xml version='1.0'?>\n<unknown_jobs >\n    <ST_name>99999</ST_name>\n</unknown_jobs>\n"));
    HandlerException odd = assertThrows(HandlerException.class, () -> QstatJobs.parse("<job_info></job_info>"));
    assertEquals(HandlerException.Category.PROTOCOL, odd.category());
    String badNumber = "<JB_hard_resource_list><qstat_l_requests><CE_name>h_rt</CE_name><CE_doubleval>-1</CE_doubleval></qstat_l_requests>"
        + "</JB_hard_resource_list>";
    assertEquals(HandlerException.Category.PROTOCOL, assertThrows(HandlerException.class,
        () -> QstatJobs.parse(details(job(1, OPTED_IN, badNumber)))).category());
  }

  @Test
  void theOtherToolsAreFoundBesideQstatWithItsWrappers() {
    Tool qstat = new Tool(List.of("/usr/bin/env", "SGE_CELL=x", "/opt/sge/bin/qstat"), Map.of("SGE_ROOT", "/opt/sge"), Duration.ofSeconds(5));
    Tool qhold = GridEngineHome.beside(qstat, "qhold");
    assertEquals(List.of("/usr/bin/env", "SGE_CELL=x", "/opt/sge/bin/qhold"), qhold.argv());
    assertEquals(qstat.environment(), qhold.environment());
    assertEquals(List.of("qrls"), GridEngineHome.beside(Tool.of("qstat", Duration.ofSeconds(5)), "qrls").argv());
  }

  /** A script without {@code #!} runs by the queue's shell at home: it travels only when the job names its shell. */
  @Test
  void aScriptTravelsAsSpooledWithItsShellNamedWhenItHasNoHashBangLine() throws IOException {
    Path spool = Files.createDirectories(tmp.resolve("spool/job_scripts"));
    Files.writeString(spool.resolve("10"), "#!/bin/bash\necho hi\n");
    Files.writeString(spool.resolve("11"), "echo no shell\n");
    Files.writeString(spool.resolve("12"), "echo bash named\n");
    String shell = "<JB_shell_list><path_list><PN_path>/bin/bash</PN_path></path_list></JB_shell_list>";
    GridEngineHome home = home(details(job(10, OPTED_IN, ""), job(11, OPTED_IN, ""), job(12, OPTED_IN, shell)), spool.getParent());
    assertEquals("#!/bin/bash\necho hi\n", home.payload("10"));
    HandlerException noShell = assertThrows(HandlerException.class, () -> home.payload("11"));
    assertEquals(HandlerException.Category.REJECTED, noShell.category());
    assertTrue(noShell.getMessage().contains("has no #! line and names no shell (qsub -S)"), noShell.getMessage());
    assertEquals("#!/bin/bash\necho bash named\n", home.payload("12"));
  }

  @Test
  void aJobNotOptedInOrALinkInTheSpoolGivesNoScript() throws IOException {
    Path spool = Files.createDirectories(tmp.resolve("spool/job_scripts"));
    Files.writeString(tmp.resolve("secret"), "#!/bin/sh\nroot's\n");
    Files.createSymbolicLink(spool.resolve("20"), tmp.resolve("secret"));
    Files.writeString(spool.resolve("21"), "#!/bin/sh\n");
    GridEngineHome home = home(details(job(20, OPTED_IN, ""), job(21, "", "")), spool.getParent());
    assertEquals(HandlerException.Category.UNAVAILABLE, assertThrows(HandlerException.class, () -> home.payload("20")).category(),
        "never followed");
    assertTrue(assertThrows(HandlerException.class, () -> home.payload("21")).getMessage().contains("was not opted in"));
    assertEquals(HandlerException.Category.NOT_FOUND, assertThrows(HandlerException.class, () -> home.payload("21;rm")).category());
  }

  /** Berkeley DB spooling (Debian's) keeps no script file: the user's own file is read, as the user, never as root. */
  @Test
  void withoutASpooledCopyTheUsersFileIsReadAsTheUserOrNotAtAll() throws IOException {
    Path spool = Files.createDirectories(tmp.resolve("spool/job_scripts"));
    String fromStdin = "<JB_script_file>STDIN</JB_script_file>";
    String roots = "<element><JB_job_number>31</JB_job_number><JB_exec_file>job_scripts/31</JB_exec_file><JB_owner>root</JB_owner>"
        + "<JB_script_file>job.sh</JB_script_file>" + OPTED_IN + "</element>";
    GridEngineHome home = home(details(job(30, OPTED_IN, fromStdin), roots), spool.getParent());
    HandlerException stdin = assertThrows(HandlerException.class, () -> home.payload("30"));
    assertTrue(stdin.getMessage().contains("submitted on standard input"), stdin.getMessage());
    HandlerException root = assertThrows(HandlerException.class, () -> home.payload("31"));
    assertEquals(HandlerException.Category.REJECTED, root.category());
    assertTrue(root.getMessage().contains("never as root"), root.getMessage());
  }

  /**
   * A replay reads its result while it runs: the sweep keeps the result of a job qstat lists as running (under {@code queue_info},
   * found when a faster qstat swept a replay's result before its starter read it, and the job ran at home a second time) and
   * deletes only a result whose job has left the queue.
   */
  @Test
  void theSweepKeepsTheResultOfAJobThatRunsAndDeletesOneWhoseJobLeft() throws IOException {
    String listing = "<?xml version='1.0'?>\n<job_info xmlns:xsd=\"x\"><queue_info><job_list state=\"running\"><JB_job_number>7</JB_job_number>"
        + "<state>r</state></job_list><job_list state=\"running\"><JB_job_number>9</JB_job_number><state>t</state><tasks>2</tasks></job_list>"
        + "</queue_info><job_info></job_info></job_info>";
    GridEngineHome home = home(listing, tmp);
    Path results = tmp.resolve("results");
    for (String id : List.of("7", "8", "9.2")) {
      Files.createDirectory(results.resolve(id));
    }
    home.observe();
    home.sweep();
    assertTrue(Files.isDirectory(results.resolve("7")), "job 7 runs: its replay may not have read its result yet");
    assertTrue(Files.isDirectory(results.resolve("9.2")), "task 9.2 is on its way to a host");
    assertFalse(Files.exists(results.resolve("8")), "job 8 left the queue");
  }

  /** A home whose qstat prints {@code xml} whatever it is asked. */
  private GridEngineHome home(String xml, Path spool) throws IOException {
    Path printed = Files.writeString(tmp.resolve("qstat.xml"), xml);
    Path qstat = tmp.resolve("bin/qstat");
    Files.createDirectories(qstat.getParent());
    Files.writeString(qstat, "#!/bin/sh\ncat " + printed + "\n");
    qstat.toFile().setExecutable(true);
    Path results = Files.createDirectories(tmp.resolve("results"));
    return new GridEngineHome(new Tool(List.of(qstat.toString()), Map.of(), Duration.ofSeconds(10)), new Results(results), spool, "mem_free",
        Clock.systemUTC());
  }
}
