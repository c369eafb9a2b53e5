package org.trustload.jmeter.pki;

import org.apache.jmeter.samplers.SampleResult;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientSampler;

/**
 * What the PKI samplers add to the template: a thread that never reached its server stops after its
 * first failure that can only repeat (connection refused, server certificate not trusted), as the
 * LDAP Request does; timeouts and failures after the server once answered stay ordinary failed samples.
 *
 * @param <R> the prepared request
 */
abstract class PkiSampler<R> extends ClientSampler<R> {
    private static final long serialVersionUID = 1L;

    /** True once this thread had an answer: a later refusal is load, not a wrong target. */
    private transient boolean reached;

    /** Records that the server answered (call from {@link #execute} once it did). */
    protected void reached() {
        reached = true;
    }

    @Override
    protected void onFailure(R request, ClientException e, SampleResult res) {
        if (PkiResults.neverReachable(e)) {
            if (!reached) {
                // the same connect can only fail the same way: one failed sample per thread says it
                res.setStopThread(true);
            }
        } else if (e != null) {
            reached = true;
        }
    }
}
