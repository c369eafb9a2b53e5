package org.trustload.harness.sizing;

import java.net.URI;
import java.util.Optional;
import org.trustload.harness.Lab;
import org.trustload.harness.host.HostMonitor;
import org.trustload.jvmstats.SourceConfig;
import org.trustload.jvmstats.StatsException;
import org.trustload.jvmstats.StatsSnapshot;
import org.trustload.jvmstats.StatsSource;
import org.trustload.jvmstats.StatsSources;

/**
 * The server {@code ./trustload size} watches: its source, its CPUs, whether it shares this machine with the load
 * generator, its local process (0: none) whose run-queue wait the watcher reads; {@code error} why it cannot be
 * watched.
 */
public record ServerWatch(StatsSource source, int cpus, boolean sharedHost, long pid, String error) {

    /**
     * The server {@code --server} names, else the lab's JVM, else none; {@link #error()} says why it cannot be watched.
     */
    public static ServerWatch of(Settings s, Lab lab) {
        String kind;
        String target;
        if (s.server() != null) {
            int colon = s.server().indexOf(':');
            if (colon <= 0) {
                return new ServerWatch(null, 0, false, 0, "--server takes KIND:TARGET ("
                        + String.join(", ", StatsSources.names())
                        + "), e.g. jvm-pid:1234 or prometheus:http://host:9100/metrics");
            }
            kind = s.server().substring(0, colon);
            target = s.server().substring(colon + 1);
        } else if (lab != null) {
            Optional<ProcessHandle> p = ProcessHandle.current().descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains(lab.properties().toString())).findFirst();
            if (p.isEmpty()) {
                return new ServerWatch(null, 0, true, 0, null);
            }
            kind = "jvm-pid";
            target = Long.toString(p.get().pid());
        } else {
            return new ServerWatch(null, 0, false, 0, null);
        }
        try {
            StatsSource src = StatsSources.open(kind, SourceConfig.of(target));
            StatsSnapshot first = src.poll();
            int cpus = s.serverCpus();
            boolean local = kind.equals("jvm-pid") || kind.equals("process");
            if (cpus <= 0) {
                cpus = first.cpuCount() > 0 ? first.cpuCount()
                        : local ? HostMonitor.allowedCpus(Long.parseLong(target.strip())) : Runtime.getRuntime()
                                .availableProcessors();
            }
            boolean shared = local || loopback(target);
            long pid = local && target.strip().matches("[0-9]+") ? Long.parseLong(target.strip()) : 0;
            return new ServerWatch(src, cpus, shared, pid, null);
        } catch (StatsException | RuntimeException e) {
            return new ServerWatch(null, 0, false, 0, "cannot watch the server (" + kind + " '" + target + "'): "
                    + e.getMessage());
        }
    }

    private static boolean loopback(String target) {
        try {
            String host = target.contains("://") ? URI.create(target).getHost() : target.split(":")[0];
            return host != null && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]")
                    || host.equals("::1"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The same server seen from a controller whose load comes from other hosts: it no longer shares its host. */
    public ServerWatch notShared() {
        return new ServerWatch(source, cpus, false, pid, error);
    }

    /** What is watched, for the report and the console. */
    public String describe() {
        return source == null ? "not watched" : source.describe();
    }
}
