package org.trustload.jmeter.jvmstats.report;

import org.apache.jmeter.report.core.Sample;
import org.apache.jmeter.report.core.SampleMetadata;
import org.apache.jmeter.report.processor.graph.impl.CustomGraphConsumer;
import org.apache.jmeter.save.CSVSaveService;

/**
 * A dashboard custom graph of one JVM Stats column that is left out of the report when the results
 * have no such column. JMeter's {@link CustomGraphConsumer} fails the whole report generation on a
 * missing column; the JVM Stats columns exist only in results of plans that use the element, while
 * {@code bin/trustload.properties} configures the graphs for every run.
 */
public class JvmStatsGraph extends CustomGraphConsumer {

    private boolean seen;

    @Override
    public void consume(Sample sample, int channel) {
        String column = CSVSaveService.VARIABLE_NAME_QUOTE_CHAR + getSampleVariableName()
                + CSVSaveService.VARIABLE_NAME_QUOTE_CHAR;
        SampleMetadata columns = getConsumedMetadata(channel);
        if (columns == null || columns.indexOf(column) < 0) {
            return;
        }
        seen = true;
        super.consume(sample, channel);
    }

    @Override
    public void stopConsuming() {
        if (seen) {
            super.stopConsuming(); // publishes the graph's data: without it the dashboard has no such graph
        } else {
            stopProducing();
        }
    }
}
