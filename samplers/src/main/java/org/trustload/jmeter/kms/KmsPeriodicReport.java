package org.trustload.jmeter.kms;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.visualizers.Visualizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.Closeables;
import org.trustload.jmeter.common.EndedSampleListener;
import org.trustload.kms.KmsReportStats;

/**
 * KMS Periodic Report (TrustLoad): every period prints the reference KMS benchmark's block
 * (RequestCount, ResponseCount, TPS, AvgTPS, Max/Min/Avg time cost, ClientErrorCount,
 * LimitExceededErrorCount, TimeoutErrorCount) to the JMeter log and to a file, and a final statistics
 * block at test end. One instance per JVM sees every sample (no thread clones); in distributed mode
 * each engine prints its own report. Implements {@link Visualizer} only so that JMeter lists it in the
 * Listeners menu.
 */
public class KmsPeriodicReport extends EndedSampleListener {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(KmsPeriodicReport.class);
    /** Default report file name, written beside the JMeter log. */
    static final String DEFAULT_FILE = "kms-periodic-report.log";

    private String period = "1";
    private String outputFile = "";
    private String labels = "";
    private boolean logBlocks = true;

    private transient KmsReportStats stats;
    private transient ScheduledExecutorService timer;
    private transient BufferedWriter out;
    private transient Pattern labelPattern;

    @Override
    public void sampleOccurred(SampleEvent e) {
        KmsReportStats s = stats;
        SampleResult r = e.getResult();
        if (s == null || (labelPattern != null && !labelPattern.matcher(r.getSampleLabel()).matches())) {
            return;
        }
        s.add(r.getTime(), r.isSuccessful(), r.getResponseCode());
    }

    @Override
    public synchronized void testStarted() {
        stats = new KmsReportStats();
        labelPattern = null;
        if (!labels.isBlank()) {
            try {
                labelPattern = Pattern.compile(labels.trim());
            } catch (PatternSyntaxException ex) {
                LOG.warn("KMS Periodic Report: label pattern '{}' is not a regular expression ({}); reporting every "
                        + "sample", labels, ex.getDescription());
            }
        }
        Path file = file();
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        } catch (IOException ex) {
            LOG.warn("KMS Periodic Report: cannot write {} ({}); reporting to the log only", file, ex.toString());
            out = null;
        }
        long ms = periodMs();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kms-periodic-report");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> emit(stats.periodReport(KmsRequestSampler.started())), ms, ms,
                TimeUnit.MILLISECONDS);
    }

    private long periodMs() {
        try {
            double s = Double.parseDouble(period.trim());
            if (s > 0) {
                return Math.max(100, Math.round(s * 1000));
            }
        } catch (NumberFormatException ignored) {
            // fall through to the warning
        }
        LOG.warn("KMS Periodic Report: period '{}' is not a positive number of seconds; using 1", period);
        return 1000;
    }

    /** The report file: the configured one, else {@value #DEFAULT_FILE} beside the JMeter log. */
    Path file() {
        if (!outputFile.isBlank()) {
            return Paths.get(outputFile.trim());
        }
        String log = System.getProperty("jmeter.logfile");
        Path dir = log == null ? null : Paths.get(log).toAbsolutePath().getParent();
        return dir == null ? Paths.get(DEFAULT_FILE) : dir.resolve(DEFAULT_FILE);
    }

    private synchronized void emit(String block) {
        if (logBlocks || out == null) {
            LOG.info("\n{}", block);
        }
        if (out != null) {
            try {
                out.write(block);
                out.write('\n');
                out.flush();
            } catch (IOException ex) {
                LOG.warn("KMS Periodic Report: writing the file failed ({}); reporting to the log only", ex.toString());
                closeFile();
            }
        }
    }

    @Override
    public synchronized void testEnded() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            timer = null;
        }
        if (stats != null) {
            emit(stats.finalReport(KmsRequestSampler.started()));
        }
        closeFile();
    }

    private void closeFile() {
        Closeables.closeQuietly(out); // nothing left to report a failure to
        out = null;
    }

    @Override
    public boolean isStats() {
        return true;
    }

    public String getPeriod() {
        return period;
    }

    public void setPeriod(String v) {
        period = v;
    }

    public String getOutputFile() {
        return outputFile;
    }

    public void setOutputFile(String v) {
        outputFile = v;
    }

    public boolean isLogBlocks() {
        return logBlocks;
    }

    public void setLogBlocks(boolean v) {
        logBlocks = v;
    }

    public String getLabels() {
        return labels;
    }

    public void setLabels(String v) {
        labels = v;
    }
}
