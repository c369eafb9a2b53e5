package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;

/** The generated GUI of {@link KmsPeriodicReport}. */
public class KmsPeriodicReportBeanInfo extends BeanInfoHelper {

    public KmsPeriodicReportBeanInfo() {
        super(KmsPeriodicReport.class);
        createPropertyGroup("report", new String[] {"period", "labels"});
        createPropertyGroup("output", new String[] {"outputFile", "logBlocks"});
        text("period", "1");
        text("labels", "");
        text("outputFile", "");
        text("logBlocks", Boolean.TRUE);
    }
}
