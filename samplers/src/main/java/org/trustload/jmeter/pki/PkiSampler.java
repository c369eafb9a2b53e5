package org.trustload.jmeter.pki;

import java.net.URI;
import org.apache.jmeter.samplers.SampleResult;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientSampler;
import org.trustload.pki.SignatureServer;

/**
 * What the PKI samplers add to the template: a thread stops after its first failure that can only repeat
 * (connection refused, server certificate not trusted) only when its server was never reached, neither by
 * this thread nor by another of the test ({@link SignatureServer#hasAnswered}), as the LDAP, KMS and TLCP
 * requests do: a thread that starts during an outage is not stopped for good. Timeouts and failures after
 * the server once answered stay ordinary failed samples.
 *
 * @param <R> the prepared request
 */
abstract class PkiSampler<R> extends ClientSampler<R> {
    private static final long serialVersionUID = 1L;

    /** True once this thread had an answer: a later refusal is load, not a wrong target. */
    private transient boolean reached;
    /** The server and the endpoint of the sample being run ({@link #target}); null for a local signature. */
    private transient SignatureServer server;
    private transient URI endpoint;

    /** Names, from {@link #prepare}, the server and the endpoint this sample goes to (nulls: nothing remote). */
    protected void target(SignatureServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
    }

    /** Records that the server answered (call from {@link #execute} once it did); the test's other threads learn it. */
    protected void reached() {
        reached = true;
        if (server != null) {
            server.answered(endpoint);
        }
    }

    @Override
    protected void onFailure(R request, ClientException e, SampleResult res) {
        if (PkiResults.neverReachable(e)) {
            if (!reached && (server == null || !server.hasAnswered(endpoint))) {
                // the same connect can only fail the same way: one failed sample per thread says it
                res.setStopThread(true);
            }
        } else if (e != null) {
            reached = true;
            if (server != null && PkiResults.answered(e)) {
                server.answered(endpoint);
            }
        }
    }
}
