package org.trustload.dist.setup;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Completes a JMeter home into which jmeter-plugins-manager installed TrustLoad (the manager runs it as the
 * {@code trustload-setup} plugin's {@code installerClass}, with only its own jar: JDK classes only). It writes
 * what the manager cannot install: {@code bin/trustload.properties} and the bgm JVM options in a marked block of
 * {@code bin/setenv.sh}, replaced on a second run. Usage: {@code JMeterHomeSetup [JMETER_HOME]}, by default the
 * home this jar lies in.
 */
public final class JMeterHomeSetup {

    static final String BEGIN = "# >>> TrustLoad: JVM options of the GM-SSL engine bgm (trustload-setup; delete"
            + " this block to undo)";
    static final String END = "# <<< TrustLoad";
    private static final Pattern BLOCK = Pattern.compile("(?s)" + Pattern.quote(BEGIN) + "\\n.*?"
            + Pattern.quote(END) + "\\n?");

    private JMeterHomeSetup() {
    }

    public static void main(String[] args) throws IOException, URISyntaxException {
        Path home = args.length > 0 ? Path.of(args[0]) : homeOfThisJar();
        setUp(home);
        System.out.println("TrustLoad: wrote " + home.resolve("bin/trustload.properties")
                + " and the bgm JVM options in "
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
