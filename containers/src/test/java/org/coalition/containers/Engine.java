package org.coalition.containers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HealthCheck;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.ExecConfig;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.images.ImagePullPolicy;

/**
 * The Docker engine the tier runs on (docker/lib/common.sh starts it; DOCKER_HOST names it):
 * named volumes, attaching and detaching containers from networks, commands in containers.
 * Without an engine it fails, saying how to start one: the tier never skips.
 */
final class Engine {
  /** The label Testcontainers puts on what it starts, given to the volumes the tier makes; docker/down removes what carries it. */
  static final Map<String, String> LABELS = Map.of("org.testcontainers", "true");

  private Engine() {}

  /** Images are built here (docker/build); none is ever pulled. */
  static final ImagePullPolicy NEVER_PULL = image -> false;

  static DockerClient client() {
    if (!DockerClientFactory.instance().isDockerAvailable()) {
      throw new IllegalStateException("no Docker engine answers at DOCKER_HOST=" + System.getenv("DOCKER_HOST")
          + "; start it and build the images with docker/build (it installs docker.io and starts dockerd when missing)");
    }
    return DockerClientFactory.instance().client();
  }

  /** Fails, naming the command that builds it, when an image is missing. */
  static String image(String name) {
    if (client().listImagesCmd().withImageNameFilter(name).exec().isEmpty()) {
      throw new IllegalStateException("image " + name + " is missing: build the images with docker/build");
    }
    return name;
  }

  /**
   * A container of a local image, never pulled (Testcontainers labels it; docker/down removes what
   * a killed run leaves), without Docker's periodic health check: the tier runs its image's check
   * only while a test waits on it ({@link #healthy}, {@link #untilHealthy}). Every check is a
   * {@code docker exec}, about 0.2 s of CPU here, and the images check every 5 s: in the tier's 15
   * containers that was about 0.6 of the machine's two cores, all the time (docs/testbed.md).
   */
  static GenericContainer<?> container(String image) {
    return new GenericContainer<>(image(image)).withImagePullPolicy(NEVER_PULL)
        .withCreateContainerCmdModifier(cmd -> cmd.withHealthcheck(new HealthCheck().withTest(List.of("NONE"))));
  }

  /**
   * Whether {@code c}'s image's own health check (its Dockerfile's HEALTHCHECK) passes now, run once
   * as Docker runs it and bounded as Docker bounds it (10 s here); false while {@code c} is stopped.
   */
  static boolean healthy(GenericContainer<?> c) {
    return healthy(c.getContainerId());
  }

  private static boolean healthy(String containerId) {
    try {
      String image = client().inspectContainerCmd(containerId).exec().getImageId();
      HealthCheck check = client().inspectImageCmd(image).exec().getConfig().getHealthcheck();
      if (check == null || check.getTest() == null || check.getTest().size() < 2) {
        throw new IllegalStateException("image " + image + " has no HEALTHCHECK to run");
      }
      List<String> command = new ArrayList<>(List.of("timeout", "10"));
      List<String> test = check.getTest();
      command.addAll(test.get(0).equals("CMD-SHELL") ? List.of("/bin/sh", "-c", test.get(1)) : test.subList(1, test.size()));
      String exec = client().execCreateCmd(containerId).withCmd(command.toArray(String[]::new)).withAttachStdout(true).withAttachStderr(true)
          .exec().getId();
      if (!client().execStartCmd(exec).exec(new ResultCallback.Adapter<>()).awaitCompletion(30, TimeUnit.SECONDS)) {
        return false;
      }
      Long code = client().inspectExecCmd(exec).exec().getExitCodeLong();
      return code != null && code == 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (DockerException e) {
      // not running (yet, or any more): not healthy
      return false;
    }
  }

  /** Waits for a container's image's health check to pass ({@link #healthy}), checking it every 2 s until {@code limit}. */
  static WaitStrategy untilHealthy(Duration limit) {
    return new AbstractWaitStrategy() {
      @Override
      protected void waitUntilReady() {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!healthy(waitStrategyTarget.getContainerId())) {
          if (System.nanoTime() > deadline) {
            throw new ContainerLaunchException("the health check of " + waitStrategyTarget.getContainerInfo().getName() + " did not pass within "
                + limit.toSeconds() + " s");
          }
          try {
            Thread.sleep(2_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContainerLaunchException("interrupted waiting for a health check", e);
          }
        }
      }
    }.withStartupTimeout(limit);
  }

  static String volume(String name) {
    client().createVolumeCmd().withName(name).withLabels(LABELS).exec();
    return name;
  }

  static void removeVolume(String name) {
    try {
      client().removeVolumeCmd(name).exec();
    } catch (RuntimeException e) {
      // already gone, or still used by a container that failed to stop: docker/down removes it
    }
  }

  /** Takes {@code c} off {@code network}: its interface there goes, its connections through it break. */
  static void detach(GenericContainer<?> c, Network network) {
    client().disconnectFromNetworkCmd().withContainerId(c.getContainerId()).withNetworkId(network.getId()).withForce(true).exec();
  }

  /** Puts {@code c} back on {@code network} under {@code alias}. */
  static void attach(GenericContainer<?> c, Network network, String alias) {
    client().connectToNetworkCmd().withContainerId(c.getContainerId()).withNetworkId(network.getId())
        .withContainerNetwork(new ContainerNetwork().withAliases(alias)).exec();
  }

  /** {@code c}'s address on {@code network}. */
  static String address(GenericContainer<?> c, Network network) {
    return client().inspectContainerCmd(c.getContainerId()).exec().getNetworkSettings().getNetworks().values().stream()
        .filter(n -> network.getId().equals(n.getNetworkID())).map(ContainerNetwork::getIpAddress).findFirst()
        .orElseThrow(() -> new IllegalStateException(c.getContainerName() + " is not on network " + network.getId()));
  }

  /**
   * The host port {@code c}'s {@code port} is published on now. Not Testcontainers' mapped port:
   * attaching a container to another network may move its published ports to that network's
   * endpoint, and a port Docker chose is then chosen again.
   */
  static int hostPort(GenericContainer<?> c, int port) {
    Ports.Binding[] bindings = client().inspectContainerCmd(c.getContainerId()).exec().getNetworkSettings().getPorts().getBindings()
        .get(ExposedPort.tcp(port));
    if (bindings == null || bindings.length == 0) {
      throw new IllegalStateException(c.getContainerName() + " publishes no port for " + port);
    }
    return Integer.parseInt(bindings[0].getHostPortSpec());
  }

  /** Sends {@code signal} (KILL, TERM ...) to {@code c}'s main process, as {@code docker kill --signal} does. */
  static void kill(GenericContainer<?> c, String signal) {
    client().killContainerCmd(c.getContainerId()).withSignal(signal).exec();
  }

  /** Stops {@code c} as {@code docker stop} does: SIGTERM, and SIGKILL after {@code seconds}. Its file system stays. */
  static void stop(GenericContainer<?> c, int seconds) {
    client().stopContainerCmd(c.getContainerId()).withTimeout(seconds).exec();
  }

  /**
   * Starts {@code c} again after a kill or a stop, with the same file system, networks and
   * aliases; returns the second it started, from which {@link Logs#follow} reads its output.
   */
  static long start(GenericContainer<?> c) {
    long since = System.currentTimeMillis() / 1000;
    client().startContainerCmd(c.getContainerId()).exec();
    return since;
  }

  /** Whether {@code c}'s main process runs. */
  static boolean running(GenericContainer<?> c) {
    return Boolean.TRUE.equals(client().inspectContainerCmd(c.getContainerId()).exec().getState().getRunning());
  }

  /** Runs a command in {@code c} as {@code user}; fails with its output when it does not exit 0. */
  static String exec(GenericContainer<?> c, String user, String... command) {
    try {
      Container.ExecResult r = c.execInContainer(ExecConfig.builder().user(user).command(command).build());
      if (r.getExitCode() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " in " + c.getContainerName() + " exited " + r.getExitCode() + ": "
            + r.getStderr() + r.getStdout());
      }
      return r.getStdout();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
