package org.trustload.bench;

/**
 * Writes the small one-cell plans the bench runs: a setUp thread group that warms up (labels
 * start with {@value #WARMUP}), then the measured thread group. Element formats follow the
 * plans in test-plans/ldap (ours) and JMeter 5.6.3's stored property names (stock samplers).
 */
final class Jmx {
    static final String WARMUP = "warmup-";

    /** Which sampler a plan drives. */
    enum Impl {
        OURS("ours (JMeter)"), RAW("raw UnboundID"), EXT("LDAPExt (stock)"), JNDI("LDAPSampler (stock)");

        final String title;

        Impl(String title) {
            this.title = title;
        }
    }

    /** Where slapd listens. */
    record Target(String host, int ldapPort, int ldapsPort, String socket, String trustStore, String trustStorePassword,
                  String baseDn, String filter) {
        int port(String scheme) {
            return "ldaps".equals(scheme) ? ldapsPort : ldapPort;
        }
    }

    record Cell(String scheme, int threads, boolean perThread, int opsPerThread) {
        String mode() {
            return perThread ? "per-thread" : "per-iteration";
        }

        String id() {
            return scheme + "-t" + threads + "-" + mode();
        }
    }

    private Jmx() {
    }

    static String plan(Impl impl, Cell cell, Target t, int warmupOps) {
        return plan(impl, cell, t, warmupOps, 0);
    }

    /**
     * The cell's plan. With {@code warmupSeconds > 0} the measured thread group itself first runs
     * the operation for that long (a Runtime Controller; samples labelled {@value #WARMUP}…), our
     * sampler under its own config, instead of a setUp thread group running {@code warmupOps}: a
     * fresh JMeter JVM is still compiling after a few thousand fast samples, and the switch from a
     * setUp thread group to the measured one makes the JIT deoptimize and compile JMeter's per-sample
     * code again inside the measured window (found in the PKI bench's profiles). The stock samplers
     * (no time-bounded warm-up) keep the setUp group, bounded by the same time.
     */
    static String plan(Impl impl, Cell cell, Target t, int warmupOps, int warmupSeconds) {
        StringBuilder b = new StringBuilder(8192);
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<jmeterTestPlan version=\"1.2\" properties=\"5.0\" jmeter=\"5.6.3\">\n  <hashTree>\n")
                .append("    <TestPlan guiclass=\"TestPlanGui\" testclass=\"TestPlan\" testname=\"bench ")
                .append(esc(impl.name() + " " + cell.id())).append("\" enabled=\"true\">\n")
                .append("      <boolProp name=\"TestPlan.functional_mode\">false</boolProp>\n")
                .append("      <boolProp name=\"TestPlan.tearDown_on_shutdown\">true</boolProp>\n")
                .append("      <boolProp name=\"TestPlan.serialize_threadgroups\">true</boolProp>\n")
                .append("      <elementProp name=\"TestPlan.user_defined_variables\" elementType=\"Arguments\" guiclass=\"ArgumentsPanel\" testclass=\"Arguments\" testname=\"User Defined Variables\" enabled=\"true\">\n")
                .append("        <collectionProp name=\"Arguments.arguments\"/>\n      </elementProp>\n")
                .append("      <stringProp name=\"TestPlan.user_define_classpath\"></stringProp>\n")
                .append("    </TestPlan>\n    <hashTree>\n");
        boolean inGroup = warmupSeconds > 0 && impl == Impl.OURS;
        if (warmupSeconds > 0 && !inGroup) {
            threadGroup(b, "SetupThreadGroup", "SetupThreadGroupGui", "warmup", cell.threads(), Integer.toString(warmupSeconds));
            body(b, impl, cell, t, -1, WARMUP);
            b.append("      </hashTree>\n");
        } else if (warmupSeconds <= 0 && warmupOps > 0) {
            threadGroup(b, "SetupThreadGroup", "SetupThreadGroupGui", "warmup", cell.threads(), MAX_SECONDS);
            body(b, impl, cell, t, warmupOps, WARMUP);
            b.append("      </hashTree>\n");
        }
        threadGroup(b, "ThreadGroup", "ThreadGroupGui", "measure", cell.threads(), MAX_SECONDS);
        if (inGroup) {
            b.append("        <RunTime guiclass=\"RunTimeGui\" testclass=\"RunTime\" testname=\"warm-up\" enabled=\"true\">\n")
                    .append("          <stringProp name=\"RunTime.seconds\">").append(warmupSeconds).append("</stringProp>\n")
                    .append("        </RunTime>\n        <hashTree>\n");
            ours(b, cell, t, WARMUP + "search");
            b.append("        </hashTree>\n");
        }
        body(b, impl, cell, t, cell.opsPerThread(), "");
        b.append("      </hashTree>\n");
        b.append("    </hashTree>\n  </hashTree>\n</jmeterTestPlan>\n");
        return b.toString();
    }

    /** Hard cap on the time a thread group may take, whatever happens to the server. */
    private static final String MAX_SECONDS = "${__P(cell.max.seconds,300)}";

    private static void threadGroup(StringBuilder b, String cls, String gui, String name, int threads, String seconds) {
        b.append("      <").append(cls).append(" guiclass=\"").append(gui).append("\" testclass=\"").append(cls)
                .append("\" testname=\"").append(name).append("\" enabled=\"true\">\n")
                .append("        <stringProp name=\"ThreadGroup.on_sample_error\">continue</stringProp>\n")
                .append("        <elementProp name=\"ThreadGroup.main_controller\" elementType=\"LoopController\" guiclass=\"LoopControlPanel\" testclass=\"LoopController\" testname=\"Loop Controller\" enabled=\"true\">\n")
                .append("          <stringProp name=\"LoopController.loops\">1</stringProp>\n")
                .append("          <boolProp name=\"LoopController.continue_forever\">false</boolProp>\n")
                .append("        </elementProp>\n")
                .append("        <stringProp name=\"ThreadGroup.num_threads\">").append(threads).append("</stringProp>\n")
                .append("        <stringProp name=\"ThreadGroup.ramp_time\">0</stringProp>\n")
                .append("        <boolProp name=\"ThreadGroup.scheduler\">true</boolProp>\n")
                .append("        <stringProp name=\"ThreadGroup.duration\">").append(seconds).append("</stringProp>\n")
                .append("        <stringProp name=\"ThreadGroup.delay\"></stringProp>\n")
                .append("        <boolProp name=\"ThreadGroup.same_user_on_next_iteration\">true</boolProp>\n")
                .append("      </").append(cls).append(">\n      <hashTree>\n");
    }

    private static void body(StringBuilder b, Impl impl, Cell cell, Target t, int ops, String prefix) {
        switch (impl) {
            case OURS:
                loopStart(b, ops);
                ours(b, cell, t, prefix + "search");
                loopEnd(b);
                break;
            case EXT:
                if (cell.perThread()) {
                    ext(b, cell, t, prefix + "bind", "bind");
                    loopStart(b, ops);
                    ext(b, cell, t, prefix + "search", "search");
                    loopEnd(b);
                    ext(b, cell, t, prefix + "unbind", "unbind");
                } else {
                    loopStart(b, ops);
                    ext(b, cell, t, prefix + "bind", "bind");
                    ext(b, cell, t, prefix + "search", "search");
                    ext(b, cell, t, prefix + "unbind", "unbind");
                    loopEnd(b);
                }
                break;
            case JNDI:
                loopStart(b, ops);
                jndi(b, t, prefix + "search");
                loopEnd(b);
                break;
            default:
                throw new IllegalArgumentException(impl + " does not run in JMeter");
        }
    }

    private static void loopStart(StringBuilder b, int ops) {
        b.append("        <LoopController guiclass=\"LoopControlPanel\" testclass=\"LoopController\" testname=\"ops\" enabled=\"true\">\n")
                .append("          <stringProp name=\"LoopController.loops\">").append(ops).append("</stringProp>\n")
                .append("          <boolProp name=\"LoopController.continue_forever\">true</boolProp>\n")
                .append("        </LoopController>\n        <hashTree>\n");
    }

    private static void loopEnd(StringBuilder b) {
        b.append("        </hashTree>\n");
    }

    private static void ours(StringBuilder b, Cell cell, Target t, String label) {
        // The connection settings live in an LDAP Connection Config the request names.
        String cfg = "org.trustload.jmeter.ldap.LdapConnectionConfig";
        b.append("          <").append(cfg).append(" guiclass=\"TestBeanGUI\" testclass=\"").append(cfg)
                .append("\" testname=\"").append(esc(label)).append(" connection\" enabled=\"true\">\n");
        prop(b, "configName", label);
        prop(b, "scheme", cell.scheme());
        prop(b, "host", t.host());
        prop(b, "port", "ldapi".equals(cell.scheme()) ? "" : Integer.toString(t.port(cell.scheme())));
        prop(b, "socketPath", "ldapi".equals(cell.scheme()) ? t.socket() : "");
        prop(b, "connectionMode", cell.mode());
        prop(b, "connectTimeout", "5000");
        prop(b, "responseTimeout", "30000");
        prop(b, "trustMode", "ldaps".equals(cell.scheme()) ? "trust-store" : "jvm-default");
        prop(b, "trustStore", "ldaps".equals(cell.scheme()) ? t.trustStore() : "");
        prop(b, "trustStorePassword", "ldaps".equals(cell.scheme()) ? t.trustStorePassword() : "");
        prop(b, "trustStoreType", "PKCS12");
        prop(b, "bindType", "anonymous");
        prop(b, "bindDn", "");
        prop(b, "bindPassword", "");
        prop(b, "authzId", "");
        b.append("            <boolProp name=\"startTls\">false</boolProp>\n");
        b.append("            <boolProp name=\"verifyHostname\">false</boolProp>\n");
        b.append("          </").append(cfg).append(">\n          <hashTree/>\n");
        String cls = "org.trustload.jmeter.ldap.LdapRequestSampler";
        b.append("          <").append(cls).append(" guiclass=\"TestBeanGUI\" testclass=\"").append(cls)
                .append("\" testname=\"").append(esc(label)).append("\" enabled=\"true\">\n");
        prop(b, "configName", label);
        prop(b, "operation", "search");
        prop(b, "baseDn", t.baseDn());
        prop(b, "scope", "sub");
        prop(b, "filter", t.filter());
        prop(b, "attributes", "");
        prop(b, "sizeLimit", "0");
        prop(b, "timeLimit", "0");
        prop(b, "entryDn", "");
        prop(b, "compareAttribute", "");
        prop(b, "compareValue", "");
        prop(b, "ldif", "");
        prop(b, "maxEntriesShown", "1");
        b.append("          </").append(cls).append(">\n          <hashTree/>\n");
    }

    /** Stock LDAP Extended Request: one JNDI context per thread name, opened by test=bind. */
    private static void ext(StringBuilder b, Cell cell, Target t, String label, String test) {
        b.append("          <LDAPExtSampler guiclass=\"LdapExtTestSamplerGui\" testclass=\"LDAPExtSampler\" testname=\"")
                .append(esc(label)).append("\" enabled=\"true\">\n");
        prop(b, "servername", t.host());
        prop(b, "port", Integer.toString(t.port(cell.scheme())));
        prop(b, "rootdn", t.baseDn());
        prop(b, "test", test);
        prop(b, "secure", Boolean.toString("ldaps".equals(cell.scheme())));
        prop(b, "trustall", "false");
        prop(b, "user_dn", "");
        prop(b, "user_pw", "");
        prop(b, "connection_timeout", "5000");
        // search base relative to rootdn (empty = rootdn itself)
        prop(b, "search", "");
        prop(b, "searchfilter", t.filter());
        prop(b, "scope", "2");
        prop(b, "countlimit", "0");
        prop(b, "timelimit", "0");
        prop(b, "attributes", "");
        prop(b, "return_object", "false");
        prop(b, "deref_aliases", "false");
        prop(b, "parseflag", "false");
        prop(b, "comparedn", "");
        prop(b, "comparefilt", "");
        prop(b, "modddn", "");
        prop(b, "newdn", "");
        b.append("          </LDAPExtSampler>\n          <hashTree/>\n");
    }

    /** Stock LDAP Request: JNDI context per sample, ldap:// only (the URL scheme is hard-coded). */
    private static void jndi(StringBuilder b, Target t, String label) {
        b.append("          <LDAPSampler guiclass=\"LdapTestSamplerGui\" testclass=\"LDAPSampler\" testname=\"")
                .append(esc(label)).append("\" enabled=\"true\">\n");
        prop(b, "servername", t.host());
        prop(b, "port", Integer.toString(t.ldapPort()));
        prop(b, "rootdn", t.baseDn());
        b.append("            <boolProp name=\"user_defined\">true</boolProp>\n");
        prop(b, "test", "search");
        prop(b, "base_entry_dn", "");
        prop(b, "search", "");
        prop(b, "searchfilter", t.filter());
        b.append("            <elementProp name=\"arguments\" elementType=\"Arguments\" guiclass=\"ArgumentsPanel\" testclass=\"Arguments\" testname=\"args\" enabled=\"true\">\n")
                .append("              <collectionProp name=\"Arguments.arguments\"/>\n            </elementProp>\n");
        prop(b, "ConfigTestElement.username", "");
        prop(b, "ConfigTestElement.password", "");
        b.append("          </LDAPSampler>\n          <hashTree/>\n");
    }

    private static void prop(StringBuilder b, String name, String value) {
        b.append("            <stringProp name=\"").append(name).append("\">").append(esc(value)).append("</stringProp>\n");
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
