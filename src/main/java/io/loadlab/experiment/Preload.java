package io.loadlab.experiment;

import io.loadlab.load.Expectation;
import io.loadlab.load.NettyLoad;
import io.loadlab.load.LoadException;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Protocol;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import io.loadlab.load.TlsOptions;
import io.loadlab.workload.Workload;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/** Writes the keys a read workload reads, before its window; not measured. */
final class Preload {

    private Preload() {
    }

    /**
     * PUTs {@code pre.count()} keys {@code pre.pathPrefix() + N} to the subject at {@code server} (its
     * path is ignored), over the protocol of the run that reads them.
     *
     * @throws LoadException when a key is not stored
     */
    static void write(Workload.Preload pre, Target server, Protocol protocol, TlsOptions tls) {
        RequestTemplate put = new RequestTemplate("PUT", new Target(server.tls(), server.host(), server.port(),
                pre.pathPrefix() + "{seq}"), List.of(), pre.bodySize());
        LoadResult r = NettyLoad.run(LoadSpec.builder().request(put).connections(Math.min(8, pre.count()))
                .threads(1).requests(pre.count()).protocol(protocol).tls(tls)
                .expect(new Expectation(Set.of(200, 201, 204), OptionalLong.empty())).build());
        if (r.errors().total() > 0 || r.requests() != pre.count()) {
            throw LoadException.failed("preloading " + pre.count() + " keys failed: " + r.requests()
                    + " answered, errors " + r.errors(), null);
        }
    }
}
