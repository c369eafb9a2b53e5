package org.trustload.jmeter.kms;

import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.common.gui.ElementForm;

/** The generated GUI of {@link KmsPeriodicReport}. */
public class KmsPeriodicReportBeanInfo extends BeanInfoHelper {

    public KmsPeriodicReportBeanInfo() {
        super(KmsPeriodicReport.class, Form.class);
        createPropertyGroup("report", new String[] {"period", "labels"});
        createPropertyGroup("output", new String[] {"outputFile", "logBlocks"});
        text("period", "1");
        text("labels", "");
        file("outputFile");
        text("logBlocks", Boolean.TRUE);
    }

    /** The element's form: JMeter's generated one with a help link. */
    public static class Form extends ElementForm {
        private static final long serialVersionUID = 1L;

        public Form() {
            super(KmsPeriodicReport.class, "kms-periodic-report");
        }
    }
}
