package org.trustload.dist.setup;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Completes a JMeter home into which jmeter-plugins-manager installed TrustLoad (the manager runs this
 * class as the {@code installerClass} of the {@code trustload-setup} plugin, with only its own jar on the
 * class path; JDK classes only). It writes what the manager cannot install, the same files the drop-in
 * and the assembled home carry:
 * <ul>
 *   <li>{@code bin/trustload.properties}: sample_variables and dashboard graphs of the JVM Stats listener
 *       (used with {@code jmeter -q bin/trustload.properties});</li>
 *   <li>the JVM options of the GM-SSL engine bgm: TrustLoad's {@code setenv.sh}, appended to
 *       {@code bin/setenv.sh} (which JMeter's start script sources) between two marker lines, replaced
 *       on a second run, removable by hand.</li>
 * </ul>
 * Usage: {@code JMeterHomeSetup [JMETER_HOME]}; without an argument, the home this jar lies in
 * ({@code lib/ext/trustload-setup-*.jar}).
 */
public final class JMeterHomeSetup {

    static final String BEGIN = "# >>> TrustLoad: JVM options of the GM-SSL engine bgm (trustload-setup; delete this block to undo)";
    static final String END = "# <<< TrustLoad";
    private static final Pattern BLOCK = Pattern.compile("(?s)" + Pattern.quote(BEGIN) + "\\n.*?" + Pattern.quote(END) + "\\n?");

    private JMeterHomeSetup() {
    }

    public static void main(String[] args) throws IOException, URISyntaxException {
        Path home = args.length > 0 ? Path.of(args[0]) : homeOfThisJar();
        setUp(home);
        System.out.println("TrustLoad: wrote " + home.resolve("bin/trustload.properties") + " and the bgm JVM options in "
                + home.resolve("bin/setenv.sh"));
    }

    /** {@code <home>/lib/ext/this.jar} gives {@code <home>}. */
    static Path homeOfThisJar() throws URISyntaxException {
        Path jar = Path.of(JMeterHomeSetup.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return jar.getParent().getParent().getParent();
    }

    static void setUp(Path home) throws IOException {
        Path bin = home.resolve("bin");
        if (!Files.exists(bin.resolve("ApacheJMeter.jar"))) {
            throw new IOException(home + " is not a JMeter home (no bin/ApacheJMeter.jar)");
        }
        Files.writeString(bin.resolve("trustload.properties"), resource("trustload.properties"));
        Path setenv = bin.resolve("setenv.sh");
        String old = Files.exists(setenv) ? Files.readString(setenv) : "";
        String kept = BLOCK.matcher(old).replaceAll("");
        if (!kept.isEmpty() && !kept.endsWith("\n")) {
            kept += "\n";
        }
        String block = BEGIN + "\n" + resource("setenv.sh").stripTrailing() + "\n" + END + "\n";
        Files.writeString(setenv, kept.isBlank() ? block : kept + block);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = JMeterHomeSetup.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no " + name + " beside " + JMeterHomeSetup.class.getName() + " in its jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
