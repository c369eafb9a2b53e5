package org.trustload.dist;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.processor.PluginCache;
import org.apache.logging.log4j.core.config.plugins.processor.PluginEntry;
import org.apache.logging.log4j.core.config.plugins.processor.PluginProcessor;

/**
 * Writes Log4j's plugin index ({@code META-INF/org/apache/logging/log4j/core/config/plugins/Log4j2Plugins.dat})
 * for log4j plugin classes that JMeter ships without one, read from their {@code @Plugin} annotation.
 *
 * <p>JMeter 5.6.3's {@code ApacheJMeter_core.jar} has no index for its GUI log appender
 * ({@code GuiLogEvent}, the GUI's log viewer), so its stock {@code bin/log4j2.xml} finds it by package
 * scanning ({@code packages="org.apache.jmeter.gui.logging"}), which Log4j 2.22 reports on the console,
 * four times per run: "The use of package scanning to locate plugins is deprecated". The assembled home
 * ships this index in {@code lib/trustload-log4j2-plugins.jar} and a {@code log4j2.xml} without
 * {@code packages}; Log4j reads every index on the class path.
 *
 * <p>Usage: {@code Log4jPluginIndex OUT_DIR CLASS...}; the index is written under {@code OUT_DIR}.
 */
public final class Log4jPluginIndex {

    private Log4jPluginIndex() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: Log4jPluginIndex OUT_DIR CLASS...");
        }
        PluginCache cache = new PluginCache();
        for (int i = 1; i < args.length; i++) {
            add(cache, Class.forName(args[i], false, Log4jPluginIndex.class.getClassLoader()));
        }
        Path out = Path.of(args[0]).resolve(PluginProcessor.PLUGIN_CACHE_FILE);
        Files.createDirectories(out.getParent());
        try (OutputStream os = Files.newOutputStream(out)) {
            cache.writeCache(os);
        }
        System.out.println("log4j plugin index: " + out);
    }

    /** The entry Log4j's annotation processor would have written for {@code type}. */
    static void add(PluginCache cache, Class<?> type) throws IOException {
        Plugin p = type.getAnnotation(Plugin.class);
        if (p == null) {
            throw new IOException(type.getName() + " has no @Plugin annotation");
        }
        String category = p.category().toLowerCase(Locale.ROOT);
        PluginEntry e = new PluginEntry();
        e.setKey(p.name().toLowerCase(Locale.ROOT));
        e.setName(p.name());
        e.setClassName(type.getName());
        e.setPrintable(p.printObject());
        e.setDefer(p.deferChildren());
        e.setCategory(category);
        Map<String, PluginEntry> entries = cache.getCategory(category);
        entries.put(e.getKey(), e);
    }
}
