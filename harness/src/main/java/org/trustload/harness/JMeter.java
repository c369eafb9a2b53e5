package org.trustload.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.trustload.common.ChildProcess;

/**
 * How every JMeter JVM the harness starts (controller, distributed engines, GUI) is launched: the same
 * java, heap, JVM flags and RMI address (loopback unless remote engines are involved), so no JVM can miss a flag.
 *
 * @param layout the checkout and its assembled JMeter home
 * @param heap heap options ({@code HEAP}, default {@code -Xms1g -Xmx1g})
 * @param jvmArgs more JVM options ({@code TRUSTLOAD_JVM_ARGS})
 */
public record JMeter(Layout layout, List<String> heap, List<String> jvmArgs) {

    /** The launcher's JVM settings from the environment ({@code HEAP}, {@code TRUSTLOAD_JVM_ARGS}). */
    public static JMeter fromEnvironment(Layout layout) {
        String heap = System.getenv("HEAP");
        return new JMeter(layout, Layout.words(heap == null ? "-Xms1g -Xmx1g" : heap),
                Layout.words(System.getenv("TRUSTLOAD_JVM_ARGS")));
    }

    /** The command line up to and including the launcher jar; add {@code -n -t plan ...} or {@code -s ...}. */
    public List<String> command() {
        // RMI (distributed mode) must announce and bind the loopback address only, on engines and controller
        return command("127.0.0.1");
    }

    /**
     * The command line of a JVM whose RMI (distributed mode, over SSL) announces and binds {@code rmiHost} only: the
     * address the other side reaches it at (a remote engine's, or the controller's as its engines see it).
     */
    public List<String> command(String rmiHost) {
        List<String> cmd = new ArrayList<>(List.of(layout.javaCommand()));
        cmd.addAll(heap);
        cmd.addAll(layout.jvmFlags());
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-Djava.rmi.server.hostname=" + rmiHost, "-jar", layout.jmeterJar().toString()));
        return cmd;
    }

    /**
     * Starts a JMeter JVM ({@link #command(String)} and {@code args}: {@code -n -t plan ...} or {@code -s ...}) in
     * {@code workDir} (relative data-file paths resolve there), its output into {@code console} and to {@code lines}.
     *
     * @param ready the start of the line that says it is ready (an engine's), or null
     */
    public ChildProcess start(String name, String rmiHost, List<String> args, Path workDir, Path console, String ready,
                       Consumer<String> lines) throws IOException {
        List<String> cmd = new ArrayList<>(command(rmiHost));
        cmd.addAll(args);
        userPrefs();
        return ChildProcess.launch(name, cmd, workDir, Map.of(), console, ready, lines);
    }

    /**
     * JMeter reads {@code java.util.prefs}; on a first run the JDK creates {@code ~/.java/.userPrefs} and prints
     * "Created user preferences directory" into the console. Made here beforehand, that line never appears.
     */
    private static void userPrefs() {
        try {
            Files.createDirectories(Path.of(System.getProperty("user.home"), ".java", ".userPrefs"));
        } catch (IOException | RuntimeException e) {
            // the JDK makes it, and says so
        }
    }
}
