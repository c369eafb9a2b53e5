package org.trustload.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.control.RunTime;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.TestElementProperty;
import org.apache.jmeter.threads.SetupThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.trustload.harness.jmx.PlanTree;

/**
 * The LDAP bench's one-cell plans (with {@link PlanTree}: JMeter's own tree and SaveService): an optional
 * setUp thread group that warms up (labels start with {@value #WARMUP}), then the measured thread group,
 * driving our LDAP Request or one of JMeter's stock LDAP samplers.
 */
final class LdapCellPlan {
    static final String WARMUP = "warmup-";
    /** Hard cap on the time a thread group may take, whatever happens to the server. */
    private static final String MAX_SECONDS = "${__P(cell.max.seconds,300)}";
    private static final String LDAP = "org.apache.jmeter.protocol.ldap.";

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

    private LdapCellPlan() {
    }

    /**
     * Writes the cell's plan to {@code file}. With {@code warmupSeconds > 0} the measured thread group itself
     * first runs the operation for that long (a Runtime Controller; samples labelled {@value #WARMUP}…), our
     * sampler under its own config, instead of a setUp thread group running {@code warmupOps}: a fresh JMeter
     * JVM is still compiling after a few thousand fast samples, and the switch from a setUp thread group to the
     * measured one makes the JIT deoptimize and compile JMeter's per-sample code again inside the measured
     * window (found in the PKI bench's profiles). The stock samplers (no time-bounded warm-up) keep the setUp
     * group, bounded by the same time. With {@code jvmStats}, a JVM Stats listener on the JMeter JVM itself.
     * Call {@link PlanTree#init} first.
     */
    static Path write(Path file, Impl impl, Cell cell, Target t, int warmupOps, int warmupSeconds, boolean jvmStats)
            throws IOException {
        HashTree tree = PlanTree.plan("bench " + impl.name() + " " + cell.id(), true);
        HashTree plan = PlanTree.planNode(tree);
        if (jvmStats) {
            plan.add(PlanTree.element("org.trustload.jmeter.jvmstats.JvmStats", PlanTree.TEST_BEAN_GUI, "JVM Stats",
                    "source", "self", "target", "", "username", "", "password", "", "intervalMs", "1000",
                    "connectTimeoutMs", "5000", "callTimeoutMs", "5000", "variablePrefix", "load",
                    "summaryFile", "jvm-stats-summary"));
        }
        boolean inGroup = warmupSeconds > 0 && impl == Impl.OURS;
        if (warmupSeconds > 0 && !inGroup) {
            body(group(plan, new SetupThreadGroup(), "warmup", cell, Integer.toString(warmupSeconds)), impl, cell, t,
                    -1, WARMUP);
        } else if (warmupSeconds <= 0 && warmupOps > 0) {
            body(group(plan, new SetupThreadGroup(), "warmup", cell, MAX_SECONDS), impl, cell, t, warmupOps, WARMUP);
        }
        HashTree measure = group(plan, new ThreadGroup(), "measure", cell, MAX_SECONDS);
        if (inGroup) {
            RunTime warm = PlanTree.element(new RunTime(), "org.apache.jmeter.control.gui.RunTimeGui", "warm-up");
            warm.setProperty("RunTime.seconds", Integer.toString(warmupSeconds));
            ours(measure.add(warm), cell, t, WARMUP + "search");
        }
        body(measure, impl, cell, t, cell.opsPerThread(), "");
        return PlanTree.save(tree, file);
    }

    private static HashTree group(HashTree plan, ThreadGroup g, String name, Cell cell, String seconds) {
        String gui = "org.apache.jmeter.threads.gui."
                + (g instanceof SetupThreadGroup ? "SetupThreadGroupGui" : "ThreadGroupGui");
        return plan.add(PlanTree.threadGroup(g, gui, name, cell.threads(), 1, seconds));
    }

    private static void body(HashTree group, Impl impl, Cell cell, Target t, int ops, String prefix) {
        switch (impl) {
            case OURS -> ours(group.add(PlanTree.loop("ops", ops)), cell, t, prefix + "search");
            case EXT -> {
                if (cell.perThread()) {
                    ext(group, cell, t, prefix + "bind", "bind");
                    ext(group.add(PlanTree.loop("ops", ops)), cell, t, prefix + "search", "search");
                    ext(group, cell, t, prefix + "unbind", "unbind");
                } else {
                    HashTree loop = group.add(PlanTree.loop("ops", ops));
                    for (String test : new String[] {"bind", "search", "unbind"}) {
                        ext(loop, cell, t, prefix + test, test);
                    }
                }
            }
            case JNDI -> jndi(group.add(PlanTree.loop("ops", ops)), t, prefix + "search");
            default -> throw new IllegalArgumentException(impl + " does not run in JMeter");
        }
    }

    /** Our LDAP Request under an LDAP Connection Config of its own (the request names it). */
    private static void ours(HashTree node, Cell cell, Target t, String label) {
        boolean ldaps = "ldaps".equals(cell.scheme());
        boolean ldapi = "ldapi".equals(cell.scheme());
        node.add(PlanTree.element("org.trustload.jmeter.ldap.LdapConnectionConfig", PlanTree.TEST_BEAN_GUI,
                label + " connection", "configName", label, "scheme", cell.scheme(), "host", t.host(),
                "port", ldapi ? "" : Integer.toString(t.port(cell.scheme())), "socketPath", ldapi ? t.socket() : "",
                "connectionMode", cell.mode(), "connectTimeout", "5000", "responseTimeout", "30000",
                "trustMode", ldaps ? "trust-store" : "jvm-default", "trustStore", ldaps ? t.trustStore() : "",
                "trustStorePassword", ldaps ? t.trustStorePassword() : "", "trustStoreType", "PKCS12",
                "bindType", "anonymous", "bindDn", "", "bindPassword", "", "authzId", "",
                "startTls", false, "verifyHostname", false));
        node.add(PlanTree.element("org.trustload.jmeter.ldap.LdapRequestSampler", PlanTree.TEST_BEAN_GUI, label,
                "configName", label, "operation", "search", "baseDn", t.baseDn(), "scope", "sub", "filter", t.filter(),
                "attributes", "", "sizeLimit", "0", "timeLimit", "0", "entryDn", "", "compareAttribute", "",
                "compareValue", "", "ldif", "", "maxEntriesShown", "1"));
    }

    /** Stock LDAP Extended Request: one JNDI context per thread name, opened by test=bind. */
    private static void ext(HashTree node, Cell cell, Target t, String label, String test) {
        node.add(PlanTree.element(LDAP + "sampler.LDAPExtSampler", LDAP + "control.gui.LdapExtTestSamplerGui", label,
                "servername", t.host(), "port", Integer.toString(t.port(cell.scheme())), "rootdn", t.baseDn(), "test",
                test, "secure", Boolean.toString("ldaps".equals(cell.scheme())), "trustall", "false", "user_dn", "",
                "user_pw", "", "connection_timeout", "5000",
                // search base relative to rootdn (empty = rootdn itself)
                "search", "", "searchfilter", t.filter(), "scope", "2", "countlimit", "0", "timelimit", "0",
                "attributes", "", "return_object", "false", "deref_aliases", "false", "parseflag", "false",
                "comparedn", "", "comparefilt", "", "modddn", "", "newdn", ""));
    }

    /** Stock LDAP Request: JNDI context per sample, ldap:// only (the URL scheme is hard-coded). */
    private static void jndi(HashTree node, Target t, String label) {
        TestElement e = PlanTree.element(LDAP + "sampler.LDAPSampler", LDAP + "control.gui.LdapTestSamplerGui", label,
                "servername", t.host(), "port", Integer.toString(t.ldapPort()), "rootdn", t.baseDn(), "user_defined",
                true, "test", "search", "base_entry_dn", "", "search", "", "searchfilter", t.filter(),
                "ConfigTestElement.username", "", "ConfigTestElement.password", "");
        e.setProperty(new TestElementProperty("arguments",
                PlanTree.element(new Arguments(), "org.apache.jmeter.config.gui.ArgumentsPanel", "args")));
        node.add(e);
    }
}
