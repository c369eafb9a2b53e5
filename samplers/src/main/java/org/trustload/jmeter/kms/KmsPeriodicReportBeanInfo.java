package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;

/** The generated GUI of {@link KmsPeriodicReport}. */
public class KmsPeriodicReportBeanInfo extends BeanInfoHelper {

    public KmsPeriodicReportBeanInfo() {
        super(KmsPeriodicReport.class);
        createPropertyGroup("report", new String[] {"period", "outputFile", "labels"});
        text("period", "1");
        text("outputFile", "");
        text("labels", "");
    }
}
