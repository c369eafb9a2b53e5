package org.trustload.lab.pdp;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;

/** The pdp service started in-process on free ports, its lab.properties and an HTTP/1.1 client, for the tests. */
record PdpTestLab(PdpLabService service, Map<String, String> props, String url, HttpClient http) {

    static PdpTestLab start(Path socketDir) throws Exception {
        PdpLabService service = new PdpLabService();
        service.start(new LabContext(TestPorts.freeBase(), 0, socketDir, 1));
        Map<String, String> props = service.properties();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        return new PdpTestLab(service, props, props.get("pdp.url"), http);
    }
}
